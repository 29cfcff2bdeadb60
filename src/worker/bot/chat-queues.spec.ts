import { describe, expect, it } from 'vitest';
import type { Update } from 'grammy/types';
import { chatKeyOf, type InboxUpdate } from '../../lib/server/telegram/bot-updates.repository.ts';
import { ChatQueues } from './chat-queues.ts';

/** A message update from `chat`; the handler below decides when it ends. */
function message(updateId: number, chat: number): InboxUpdate {
	const update = {
		update_id: updateId,
		message: { message_id: updateId, date: 0, chat: { id: chat, type: 'private', first_name: 'G' }, text: 'hi' }
	} as unknown as Update;
	return { update, chatKey: chatKeyOf(update) };
}

/** Handlers that end when the test says so: the order of events, never the time, decides. */
function controlledQueues(limit: number) {
	const started: number[] = [];
	const finish = new Map<number, () => void>();
	const queues = new ChatQueues(limit, ({ update }) => {
		started.push(update.update_id);
		return new Promise<void>((resolve) => finish.set(update.update_id, resolve));
	});
	const end = async (id: number) => {
		finish.get(id)?.();
		await new Promise((resolve) => setImmediate(resolve));
	};
	return { queues, started, end };
}

describe('chat queues', () => {
	it('runs different chats side by side and one chat’s updates one after another, in order', async () => {
		const { queues, started, end } = controlledQueues(16);
		for (const [id, chat] of [
			[1, 10],
			[2, 10],
			[3, 20],
			[4, 10],
			[5, 30]
		] as const)
			queues.add(message(id, chat));
		expect(started).toEqual([1, 3, 5]);
		await end(3);
		await end(5);
		expect(started).toEqual([1, 3, 5]); // chat 10's next waits for its first
		await end(1);
		expect(started).toEqual([1, 3, 5, 2]);
		await end(2);
		expect(started).toEqual([1, 3, 5, 2, 4]);
		await end(4);
		await queues.idle();
		expect(queues.size).toBe(0);
	});

	it('never runs more than the limit, and a chat that had a turn goes to the back of the line', async () => {
		const { queues, started, end } = controlledQueues(2);
		queues.add(message(1, 10));
		queues.add(message(2, 10));
		queues.add(message(3, 20));
		queues.add(message(4, 30));
		expect(started).toEqual([1, 3]);
		await end(1);
		expect(started).toEqual([1, 3, 4]); // chat 30 waited longer than chat 10's second update
		await end(3);
		expect(started).toEqual([1, 3, 4, 2]);
	});

	it('the same update added twice runs once; close() starts nothing more and waits for the running ones', async () => {
		const { queues, started, end } = controlledQueues(1);
		queues.add(message(1, 10));
		queues.add(message(1, 10));
		queues.add(message(2, 20));
		let closed = false;
		const closing = queues.close().then(() => (closed = true));
		await new Promise((resolve) => setImmediate(resolve));
		expect(closed).toBe(false);
		await end(1);
		await closing;
		expect(started).toEqual([1]);
		queues.add(message(3, 30));
		expect(started).toEqual([1]);
	});
});
