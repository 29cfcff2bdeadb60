/**
 * A raw Server-Sent Events reader over fetch, for tests that watch the wire itself: every event in
 * arrival order, and whether (and when) the server ended the stream. Unlike EventSource it never
 * reconnects, so "the server closed it" is visible.
 */
export interface SseEvent {
	event: string;
	data: string;
	at: number;
}

export interface SseStream {
	status: number;
	events: SseEvent[];
	/** Resolves with the time the server ended the response body. */
	ended: Promise<number>;
	waitFor: (predicate: (event: SseEvent) => boolean, timeoutMs?: number) => Promise<SseEvent>;
	close: () => void;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
	const abort = new AbortController();
	const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
	const events: SseEvent[] = [];
	const waiters = new Set<() => void>();
	const notify = () => waiters.forEach((wake) => wake());
	const ended = readEvents(response, events, notify).then(() => {
		notify();
		return Date.now();
	});
	let done = false;
	void ended.then(() => (done = true));
	const waitFor = (predicate: (event: SseEvent) => boolean, timeoutMs = 15_000) =>
		new Promise<SseEvent>((resolve, reject) => {
			const check = () => {
				const found = events.find(predicate);
				if (found) finish(() => resolve(found));
				else if (done) finish(() => reject(new Error(`stream ended without the event; got ${JSON.stringify(events)}`)));
			};
			const timer = setTimeout(
				() => finish(() => reject(new Error(`timed out; got ${JSON.stringify(events)}`))),
				timeoutMs
			);
			const finish = (then: () => void) => {
				clearTimeout(timer);
				waiters.delete(check);
				then();
			};
			waiters.add(check);
			check();
		});
	return { status: response.status, events, ended, waitFor, close: () => abort.abort() };
}

async function readEvents(response: Response, events: SseEvent[], notify: () => void): Promise<void> {
	if (!response.body) return;
	const decoder = new TextDecoder();
	let buffer = '';
	const reader = response.body.getReader();
	try {
		for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
			buffer += decoder.decode(chunk.value, { stream: true });
			let split: number;
			while ((split = buffer.indexOf('\n\n')) >= 0) {
				const block = buffer.slice(0, split);
				buffer = buffer.slice(split + 2);
				const event = parseBlock(block);
				if (event) {
					events.push(event);
					notify();
				}
			}
		}
	} catch {
		/* aborted by close() */
	}
}

function parseBlock(block: string): SseEvent | null {
	let event = 'message';
	const data: string[] = [];
	for (const line of block.split('\n')) {
		if (line.startsWith('event:')) event = line.slice(6).trim();
		else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
	}
	if (data.length === 0 && event === 'message') return null;
	return { event, data: data.join('\n'), at: Date.now() };
}
