/** Comment lines keep proxies from closing an idle stream. */
const KEEPALIVE_MS = 15_000;

export type Send = (event: string, data: unknown) => void;
/** Ends the stream from the server's side, optionally with a last event saying why. */
export type EndStream = (last?: { event: string; data: unknown }) => void;

/**
 * A server-sent events response. `start` begins pushing and returns its stop function, which runs
 * when the browser goes away (the request's signal), the stream is cancelled, or the server ends
 * it (`end`). `retry` tells EventSource to reconnect after a second when the connection drops.
 */
export function eventStream(signal: AbortSignal, start: (send: Send, end: EndStream) => () => void): Response {
	const encoder = new TextEncoder();
	let stop: (() => void) | undefined;
	const body = new ReadableStream<Uint8Array>({
		start(controller) {
			let open = true;
			const write = (text: string) => {
				if (!open) return;
				try {
					controller.enqueue(encoder.encode(text));
				} catch {
					open = false;
				}
			};
			write('retry: 1000\n\n');
			const send: Send = (event, data) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
			const end: EndStream = (last) => {
				if (last) send(last.event, last.data);
				stop?.();
			};
			const unsubscribe = start(send, end);
			const keepalive = setInterval(() => write(': keepalive\n\n'), KEEPALIVE_MS);
			let stopped = false;
			stop = () => {
				if (stopped) return;
				stopped = true;
				open = false;
				clearInterval(keepalive);
				unsubscribe();
				try {
					controller.close();
				} catch {
					/* already closed by the client */
				}
			};
			signal.addEventListener('abort', () => stop?.(), { once: true });
			if (signal.aborted) stop();
		},
		cancel() {
			stop?.();
		}
	});
	return new Response(body, {
		headers: {
			'content-type': 'text/event-stream; charset=utf-8',
			'cache-control': 'no-store',
			'x-accel-buffering': 'no',
			connection: 'keep-alive'
		}
	});
}
