import type { IncomingMessage, ServerResponse } from 'node:http';

/** What changed, pushed to the page over SSE so it never polls. */
export type EmulatorEvent =
	| {
			type: 'message';
			bot: string;
			chat_id: number;
			message_id: number;
			action: 'new' | 'edit' | 'delete' | 'pin';
	  }
	| {
			type: 'callback_answer';
			bot: string;
			chat_id: number;
			user_id: number;
			callback_query_id: string;
			text?: string;
			show_alert: boolean;
			url?: string;
	  }
	| { type: 'sticker_set'; name: string; action: 'created' | 'changed' | 'deleted' }
	| { type: 'users' }
	| { type: 'reset' };

const HEARTBEAT_MS = 15_000;

export class EventHub {
	private readonly clients = new Set<ServerResponse>();
	private readonly heartbeat: NodeJS.Timeout;

	constructor() {
		// Proxies and browsers drop silent streams; a comment line keeps them open.
		this.heartbeat = setInterval(() => this.writeAll(': ping\n\n'), HEARTBEAT_MS);
		this.heartbeat.unref();
	}

	subscribe(req: IncomingMessage, res: ServerResponse): void {
		res.writeHead(200, {
			'content-type': 'text/event-stream; charset=utf-8',
			'cache-control': 'no-store',
			connection: 'keep-alive'
		});
		res.write('retry: 1000\n\n');
		this.clients.add(res);
		req.on('close', () => this.clients.delete(res));
	}

	publish(event: EmulatorEvent): void {
		this.writeAll(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
	}

	close(): void {
		clearInterval(this.heartbeat);
		for (const client of this.clients) client.end();
		this.clients.clear();
	}

	private writeAll(chunk: string): void {
		for (const client of this.clients) client.write(chunk);
	}
}
