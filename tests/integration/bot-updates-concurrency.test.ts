import { afterEach, describe, expect, it } from 'vitest';
import { useTempDir } from '../helpers/temp-dir.ts';
import {
	eventually,
	guestReachesOutfit,
	newGuest,
	startGuestWorld,
	startSession,
	updatesHandled,
	type Guest,
	type GuestWorld
} from './guest-harness.ts';

const BAD_CODE = '/start AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const NOT_VALID = /code is not valid/;

/**
 * One guest's slow reply holds up that guest only: the worker's BotRunner (guest-harness) handles
 * updates of different chats side by side and one chat's in order (update-poll.ts, chat-queues.ts).
 * Telegram's slowness is the emulator's faults on one guest's chat; what the test waits for are
 * events (a call seen, a fault still armed, a reply), never a pause.
 */
describe('updates of different chats are handled side by side', () => {
	const tempDir = useTempDir('bot-updates-concurrency-');
	let world: GuestWorld;
	afterEach(async () => world?.close());

	/** Resolves once the emulator has seen the bot's first sendMessage to `guest` (answered or held). */
	const replyAttempted = (guest: Guest) =>
		eventually(
			() => world.emulator.control.callCounts(),
			(counts) => counts.calls.some((c) => c.method === 'sendMessage' && c.chat_id === guest.id)
		);

	it('guest A’s reply held by a slow Telegram: guest B’s /start, consent and outfit taps are answered meanwhile, then A’s', async () => {
		world = await startGuestWorld(tempDir());
		const slow = await newGuest(world, 'en', 'Slow');
		const quick = await newGuest(world, 'en', 'Quick');
		await world.emulator.control.injectFault({ method: 'sendMessage', kind: 'hold', chat_id: slow.id, times: 5 });
		await slow.send(BAD_CODE);
		await replyAttempted(slow);

		const token = await startSession(world);
		await guestReachesOutfit(world, quick, token);
		// B went through the whole flow while A's reply was still held at Telegram.
		expect((await world.emulator.control.faults()).some((f) => f.chat_id === slow.id)).toBe(true);
		expect((await slow.messages()).filter((m) => m.from_bot)).toEqual([]);

		await world.emulator.control.clearFaults();
		await slow.waitFor((m) => NOT_VALID.test(m.text ?? ''));
		await updatesHandled(world);
		expect((await slow.messages()).filter((m) => m.from_bot)).toHaveLength(1);
	});

	it('guest A’s replies get 502s and are retried: guest B’s /start is answered before A’s fault clears', async () => {
		world = await startGuestWorld(tempDir());
		const failing = await newGuest(world, 'en', 'Failing');
		const quick = await newGuest(world, 'en', 'Quick');
		// More 502s than the retry policy tries: A's handler sits in its retries (about 45 s) until cleared.
		await world.emulator.control.injectFault({
			method: 'sendMessage',
			kind: '5xx',
			status: 502,
			chat_id: failing.id,
			times: 50
		});
		await failing.send(BAD_CODE);
		await replyAttempted(failing);

		const token = await startSession(world);
		await quick.send(`/start ${token}`);
		await quick.waitFor((m) => m.buttons.length > 0);
		await quick.send(BAD_CODE);
		await quick.waitFor((m) => NOT_VALID.test(m.text ?? ''));
		const armed = (await world.emulator.control.faults()).find((f) => f.chat_id === failing.id);
		expect(armed?.remaining).toBeGreaterThan(0);
		expect((await failing.messages()).filter((m) => m.from_bot)).toEqual([]);

		// Cleared, A's update ends (answered by the next retry, or given up) and is marked handled.
		await world.emulator.control.clearFaults();
		await updatesHandled(world);
	});

	it('one chat’s updates taken in one batch are handled in order, its first reply held, while another chat is answered', async () => {
		world = await startGuestWorld(tempDir());
		const busy = await newGuest(world, 'en', 'Busy');
		const other = await newGuest(world, 'en', 'Other');
		// The runner is stopped while the guests write, so the next poll takes everything as one batch.
		await world.runner.stop();
		const texts = ['/start', BAD_CODE, '/start', BAD_CODE, '/start', BAD_CODE];
		for (const text of texts) await busy.send(text);
		await other.send(BAD_CODE);
		await world.emulator.control.injectFault({ method: 'sendMessage', kind: 'hold', chat_id: busy.id, times: 1 });
		world.runner.start();

		// Busy's first reply is held; the other chat is answered meanwhile, and none of busy's later
		// updates overtook its first one.
		await other.waitFor((m) => NOT_VALID.test(m.text ?? ''));
		await replyAttempted(busy);
		expect((await busy.messages()).filter((m) => m.from_bot)).toEqual([]);
		const busyCalls = (await world.emulator.control.callCounts()).calls.filter(
			(c) => c.method === 'sendMessage' && c.chat_id === busy.id
		);
		expect(busyCalls).toHaveLength(1);

		await world.emulator.control.clearFaults();
		await updatesHandled(world);
		const replies = (await busy.messages()).filter((m) => m.from_bot).map((m) => m.text ?? '');
		expect(replies).toHaveLength(texts.length);
		expect(replies.map((text) => (NOT_VALID.test(text) ? 'bad code' : 'how to begin'))).toEqual(
			texts.map((text) => (text === BAD_CODE ? 'bad code' : 'how to begin'))
		);
	});
});
