import type { InboxUpdate } from '../../lib/server/telegram/bot-updates.repository.ts';

/**
 * Runs updates of different chats side by side, at most `limit` at a time, and the updates of one
 * chat strictly one after another in the order they were added (grammY runner's `sequentialize`
 * by chat, with the bound of its `run`). A chat that has just had a turn goes to the back of the
 * line, so a guest who sent fifty messages does not hold the slots while others wait. One guest's
 * slow reply (Telegram answering 502s and the retries, or the wait for the chat's place in the send
 * budget) holds that guest's next update only, never another guest's.
 */
export class ChatQueues {
	readonly #limit: number;
	readonly #handle: (item: InboxUpdate) => Promise<void>;
	/** Each chat's updates not yet started, for chats with any waiting or running. */
	readonly #queues = new Map<string, InboxUpdate[]>();
	readonly #running = new Set<string>();
	/** Chats with an update waiting and none running, in the order they get a slot. */
	readonly #ready: string[] = [];
	/** Update ids added and not yet finished: the same update added twice runs once. */
	readonly #known = new Set<number>();
	#closed = false;
	#settled: (() => void)[] = [];

	constructor(limit: number, handle: (item: InboxUpdate) => Promise<void>) {
		this.#limit = Math.max(1, limit);
		this.#handle = handle;
	}

	/** Updates added and not finished (running or waiting). */
	get size(): number {
		return this.#known.size;
	}

	add(item: InboxUpdate): void {
		const id = item.update.update_id;
		if (this.#closed || this.#known.has(id)) return;
		this.#known.add(id);
		const queue = this.#queues.get(item.chatKey);
		if (queue) queue.push(item);
		else this.#queues.set(item.chatKey, [item]);
		if (!this.#running.has(item.chatKey) && !this.#ready.includes(item.chatKey)) this.#ready.push(item.chatKey);
		this.#pump();
	}

	/**
	 * Starts nothing more: what runs finishes, what waits stays unhandled (in the inbox, for the
	 * next poller). Resolves when the running ones are done.
	 */
	close(): Promise<void> {
		this.#closed = true;
		for (const [chat, queue] of this.#queues) {
			for (const item of queue) this.#known.delete(item.update.update_id);
			if (!this.#running.has(chat)) this.#queues.delete(chat);
			else queue.length = 0;
		}
		this.#ready.length = 0;
		return this.#whenSettled();
	}

	/** Resolves once every update added so far has finished (or was dropped by close()). */
	idle(): Promise<void> {
		return this.#whenSettled();
	}

	/** Resolves once fewer than `count` updates are added and not finished (the poll's back-pressure). */
	async below(count: number): Promise<void> {
		while (this.#known.size >= count) await new Promise<void>((resolve) => this.#settled.push(resolve));
	}

	#whenSettled(): Promise<void> {
		if (this.#known.size === 0) return Promise.resolve();
		return new Promise<void>((resolve) => {
			const check = () => (this.#known.size === 0 ? resolve() : this.#settled.push(check));
			this.#settled.push(check);
		});
	}

	#pump(): void {
		while (this.#running.size < this.#limit && this.#ready.length > 0) {
			const chat = this.#ready.shift()!;
			const item = this.#queues.get(chat)?.shift();
			if (!item) continue;
			this.#running.add(chat);
			void this.#run(chat, item);
		}
	}

	async #run(chat: string, item: InboxUpdate): Promise<void> {
		try {
			await this.#handle(item);
		} catch {
			// The handler reports its own failures (update-poll.ts); a queue only keeps the order.
		} finally {
			this.#known.delete(item.update.update_id);
			this.#running.delete(chat);
			if (this.#queues.get(chat)?.length) this.#ready.push(chat);
			else this.#queues.delete(chat);
			this.#pump();
			const waiting = this.#settled;
			this.#settled = [];
			for (const wake of waiting) wake();
		}
	}
}
