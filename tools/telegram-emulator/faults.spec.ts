import type { Api } from 'grammy';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyTelegramRetryPolicy } from '../../src/lib/server/telegram/retry-policy.ts';
import type { TelegramEmulator } from './server.ts';
import { botFor, startedUser, startEmulator } from './test-support.ts';

// The product's retry policy against injected faults: flood control is waited out for exactly
// the time Telegram names, server errors and dropped connections are retried, and in every case
// the chat ends up with one message, not zero or two.

let emulator: TelegramEmulator;
let api: Api;
let chatId: number;

beforeEach(async () => {
	emulator = await startEmulator();
	const bot = botFor(emulator);
	applyTelegramRetryPolicy(bot.api);
	api = bot.api;
	chatId = await startedUser(emulator);
});

afterEach(async () => {
	await emulator.close();
});

async function botMessages(): Promise<string[]> {
	const messages = await emulator.control.chatMessages(chatId);
	return messages.filter((message) => message.from_bot).map((message) => message.text ?? '');
}

async function sendMessageCalls() {
	const { calls } = await emulator.control.callCounts();
	return calls.filter((call) => call.method === 'sendMessage');
}

describe('fault injection with the product retry policy', () => {
	it('waits out a 429 for retry_after seconds', async () => {
		await emulator.control.injectFault({ method: 'sendMessage', kind: '429', retry_after: 2, chat_id: chatId });
		await api.sendMessage(chatId, 'Your stickers are ready');
		const calls = await sendMessageCalls();
		expect(calls.map((call) => call.outcome)).toEqual([429, 200]);
		expect((calls[1]?.at ?? 0) - (calls[0]?.at ?? 0)).toBeGreaterThanOrEqual(2_000);
		expect(await botMessages()).toEqual(['Your stickers are ready']);
		const counts = await emulator.control.callCounts();
		expect(counts.byChat[`sendMessage:${chatId}`]).toBe(2);
	});

	it('retries a 5xx into exactly one message', async () => {
		await emulator.control.injectFault({ method: 'sendMessage', kind: '5xx', status: 502 });
		await api.sendMessage(chatId, 'After a 502');
		expect((await sendMessageCalls()).map((call) => call.outcome)).toEqual([502, 200]);
		expect(await botMessages()).toEqual(['After a 502']);
	});

	it('retries a dropped connection into exactly one message', async () => {
		await emulator.control.injectFault({ method: 'sendMessage', kind: 'drop' });
		await api.sendMessage(chatId, 'After a drop');
		expect((await sendMessageCalls()).map((call) => call.outcome)).toEqual(['dropped', 200]);
		expect(await botMessages()).toEqual(['After a drop']);
	});
});

describe('fault registry', () => {
	it('delays, matches per chat and runs out after `times` calls', async () => {
		const other = await startedUser(emulator, 'Bob');
		await emulator.control.injectFault({ method: 'sendMessage', kind: 'delay', ms: 300, times: 2, chat_id: chatId });
		const started = Date.now();
		await api.sendMessage(other, 'not delayed');
		await api.sendMessage(chatId, 'delayed 1');
		await api.sendMessage(chatId, 'delayed 2');
		await api.sendMessage(chatId, 'the fault has run out');
		// Which calls the fault held is read from the emulator's record, not from a stopwatch: on a busy
		// machine an undelayed call may take longer than a delayed one would on a quiet one.
		expect((await sendMessageCalls()).map((call) => [call.chat_id, call.delayed_ms])).toEqual([
			[other, 0],
			[chatId, 300],
			[chatId, 300],
			[chatId, 0]
		]);
		// Waiting only makes things later, never earlier: the two holds were real.
		expect(Date.now() - started).toBeGreaterThanOrEqual(600);
		expect(await emulator.control.clearFaults().then(() => emulator.control.callCounts())).toMatchObject({
			byChat: { [`sendMessage:${chatId}`]: 3, [`sendMessage:${other}`]: 1 }
		});
	});
});
