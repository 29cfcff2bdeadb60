import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { Api } from 'grammy';
import sharp from 'sharp';
import { storeBroadcastImage } from '../../src/lib/server/broadcasts/broadcast-image.ts';
import { countAudience } from '../../src/lib/server/broadcasts/audience.ts';
import { queueTestSend } from '../../src/lib/server/broadcasts/broadcast-recipients.repository.ts';
import {
	cancelBroadcast,
	createBroadcast,
	pauseBroadcast,
	resumeBroadcast,
	scheduleBroadcast,
	startDueBroadcasts
} from '../../src/lib/server/broadcasts/broadcasts.repository.ts';
import { isBotBlocked, markBotBlocked } from '../../src/lib/server/guests/bot-blocked.ts';
import { EMULATOR_BOT_TOKEN } from '../../src/lib/server/config/config.ts';
import { eraseGuest } from '../../src/lib/server/lifecycle/guest-erasure.ts';
import { optOutOfBroadcasts } from '../../src/lib/server/broadcasts/opt-out.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { BotBudget } from '../../src/lib/server/telegram/bot-budget.ts';
import { ChatCooldown } from '../../src/lib/server/telegram/flood-control.ts';
import { deliverBroadcasts, type BroadcastDeliveryDeps } from '../../src/worker/tasks/broadcasts-deliver.ts';
import { countDeliveries, createEvent, queueBroadcast, seedGuests } from './broadcast-world.ts';
import { useGuestWorlds, type GuestWorld } from './guest-harness.ts';
import { localFileStore } from '../helpers/file-store.ts';

/**
 * The broadcast outbox in one process: the production bot polls the emulator (for the opt-out
 * button and /stop), the delivery pass runs on a FakeClock whose sleeps advance the clock, so the
 * pacing is measured in the clock's time, not the machine's.
 */
const startWorld = useGuestWorlds('bcast-');

interface Sent {
	chatId: number;
	at: number;
	/** For sendPhoto: the file_id reused, or 'upload'. */
	photo?: string;
}

async function setUp(): Promise<{ world: GuestWorld; deps: BroadcastDeliveryDeps; sends: Sent[] }> {
	const world = await startWorld();
	const { clock, emulator } = world;
	const api = new Api(EMULATOR_BOT_TOKEN, { apiRoot: emulator.url });
	const sends: Sent[] = [];
	api.config.use((prev, method, payload, signal) => {
		const { chat_id, photo } = payload as { chat_id: number; photo?: unknown };
		if (method === 'sendMessage' || method === 'sendPhoto')
			sends.push({
				chatId: Number(chat_id),
				at: clock.now().getTime(),
				...(method === 'sendPhoto' ? { photo: typeof photo === 'string' ? photo : 'upload' } : {})
			});
		return prev(method, payload, signal);
	});
	const deps: BroadcastDeliveryDeps = {
		db: world.db,
		clock,
		logger: silentLogger,
		api,
		budget: new BotBudget(world.db, clock, 'test'),
		cooldown: new ChatCooldown(),
		leaseMs: 120_000,
		sleep: async (ms) => clock.advance(ms),
		random: () => 0.5,
		fileStore: world.fileStore
	};
	return { world, deps, sends };
}

async function deliverAll(deps: BroadcastDeliveryDeps, passes = 50): Promise<void> {
	for (let i = 0; i < passes; i++) {
		await deliverBroadcasts(deps);
		const left = await deps.db.broadcastRecipient.count({ where: { state: 'queued' } });
		if (left === 0) return;
		(deps.clock as GuestWorld['clock']).advance(1000);
	}
}

describe('broadcast audience and delivery', () => {
	it('reaches the guests of one event who said yes to news only, once each, paced under the limits', async () => {
		const { world, deps, sends } = await setUp();
		const now = world.clock.now().toISOString();
		const other = await createEvent(world.db, 'Other event', now);
		const ours = await seedGuests(
			world.db,
			world.emulator,
			Array.from({ length: 40 }, () => ({ eventId: 1 })),
			now
		);
		const [notConsented, optedOut, otherGuest] = await seedGuests(
			world.db,
			world.emulator,
			[{ eventId: 1, consented: false }, { eventId: 1, optedOut: true }, { eventId: other }],
			now
		);
		expect(await countAudience(world.db, 1)).toBe(40);
		expect(await countAudience(world.db, null)).toBe(41);

		const id = await queueBroadcast(world.db, '<b>Thank you</b> for coming! m1', 1, now);
		await deliverAll(deps);

		const counts = await countDeliveries(
			world.emulator,
			[...ours, notConsented!, optedOut!, otherGuest!],
			'for coming! m1'
		);
		expect(ours.map((g) => counts.get(g))).toEqual(ours.map(() => 1));
		expect([notConsented, optedOut, otherGuest].map((g) => counts.get(g!))).toEqual([0, 0, 0]);
		const broadcast = await world.db.broadcast.findUniqueOrThrow({ where: { id } });
		expect(broadcast).toMatchObject({ state: 'done', audienceCount: 40 });
		// ≤ 25 a second overall: any 26 consecutive sends span at least a second of the clock.
		for (let i = 25; i < sends.length; i++) expect(sends[i]!.at - sends[i - 25]!.at).toBeGreaterThanOrEqual(1000);
		const message = (await world.emulator.control.chatMessages(ours[0]!)).find((m) => m.text?.includes('m1'));
		expect(message?.entities.map((e) => e.type)).toContain('bold');
		expect(message?.buttons.flat().map((b) => b.text)).toEqual(['🔕 No more messages']);
	});

	it('honours retry_after on 429: nothing is sent before the wait, nothing is lost or doubled', async () => {
		const { world, deps, sends } = await setUp();
		const now = world.clock.now().toISOString();
		const guests = await seedGuests(
			world.db,
			world.emulator,
			Array.from({ length: 12 }, () => ({})),
			now
		);
		await world.emulator.control.injectFault({ method: 'sendMessage', kind: '429', retry_after: 3, times: 4 });
		await world.emulator.control.injectFault({ method: 'sendMessage', kind: '5xx', status: 502, times: 2 });
		await queueBroadcast(world.db, 'Storm m2', null, now);
		await deliverAll(deps);
		const counts = await countDeliveries(world.emulator, guests, 'Storm m2');
		expect([...counts.values()]).toEqual(guests.map(() => 1));
		// After each 429 the next call waited the full retry_after (3 s of the clock).
		const calls = (await world.emulator.control.callCounts()).calls.filter((c) => c.method === 'sendMessage');
		expect(calls.filter((c) => c.outcome === 429)).toHaveLength(4);
		for (let i = 1; i <= 4; i++) expect(sends[i]!.at - sends[i - 1]!.at).toBeGreaterThanOrEqual(3000);
	});

	it('a chat cooling down after a 429 gets no broadcast (no attempt counted) until the cooldown ends', async () => {
		// The worker passes its one ChatCooldown (worker/schedule.ts: the guest notices'), so a 429 on
		// any message to a guest quiets that chat for every sender of ours.
		const { world, deps, sends } = await setUp();
		const now = world.clock.now().toISOString();
		const [guest] = await seedGuests(world.db, world.emulator, [{}], now);
		deps.cooldown.pause(BigInt(guest!), world.clock.now().getTime() + 30_000);
		await queueBroadcast(world.db, 'Quiet m9', null, now);
		await deliverBroadcasts(deps);
		expect(sends).toEqual([]);
		expect(await world.db.broadcastRecipient.findFirstOrThrow()).toMatchObject({ state: 'queued', attempts: 0 });
		world.clock.advance(30_000);
		await deliverAll(deps);
		expect(sends.map((s) => s.chatId)).toEqual([guest]);
		expect(await world.db.broadcastRecipient.findFirstOrThrow()).toMatchObject({ state: 'sent' });
	});

	it('sends a picture with the text as its caption, uploading it once and reusing its file_id', async () => {
		const { world, deps, sends } = await setUp();
		const now = world.clock.now().toISOString();
		const guests = await seedGuests(world.db, world.emulator, [{}, {}, {}], now);
		const png = await sharp({ create: { width: 80, height: 60, channels: 3, background: '#3a6' } })
			.png()
			.toBuffer();
		const imagePath = path.join(world.dir, 'broadcasts', await storeBroadcastImage(localFileStore(world.dir), png));
		const broadcast = await createBroadcast(world.db, now, {
			eventId: null,
			text: '<i>Photo</i> m7',
			imagePath,
			buttonText: 'Gallery',
			buttonUrl: 'https://example.com/g',
			createdBy: 'test'
		});
		await scheduleBroadcast(world.db, now, broadcast.id, now);
		await deliverAll(deps);
		for (const guest of guests) {
			const message = (await world.emulator.control.chatMessages(guest)).find((m) => m.caption?.includes('Photo m7'));
			expect(message?.photo).toBeDefined();
			expect(message?.buttons.flat().map((b) => b.text)).toEqual(['Gallery', '🔕 No more messages']);
		}
		const fileId = (await world.db.broadcast.findUniqueOrThrow({ where: { id: broadcast.id } })).imageFileId;
		expect(fileId).toBeTruthy();
		expect(sends.map((s) => s.photo)).toEqual(['upload', fileId, fileId]);
	});

	it('marks a guest who blocked the bot (403) and leaves them out of the next broadcast', async () => {
		const { world, deps } = await setUp();
		const now = world.clock.now().toISOString();
		const [blocked, fine] = await seedGuests(world.db, world.emulator, [{ blockedInTelegram: true }, {}], now);
		const first = await queueBroadcast(world.db, 'First m3', null, now);
		await deliverAll(deps);
		const row = await world.db.broadcastRecipient.findFirstOrThrow({
			where: { broadcastId: first, telegramUserId: BigInt(blocked!) }
		});
		expect(row).toMatchObject({ state: 'blocked', error: 'blocked the bot (403)' });
		expect(await isBotBlocked(world.db, BigInt(blocked!))).toBe(true);
		const second = await queueBroadcast(world.db, 'Second m3', null, world.clock.now().toISOString());
		await deliverAll(deps);
		expect(await world.db.broadcastRecipient.count({ where: { broadcastId: second } })).toBe(1);
		expect((await countDeliveries(world.emulator, [fine!], 'Second m3')).get(fine!)).toBe(1);

		// Marked by something else (a notice's 403) after the audience was chosen: closed without a call.
		const third = await queueBroadcast(world.db, 'Third m3', null, world.clock.now().toISOString());
		await startDueBroadcasts(world.db, world.clock.now().toISOString());
		await markBotBlocked(world.db, world.clock, BigInt(fine!));
		const callsBefore = (await world.emulator.control.callCounts()).byChat[`sendMessage:${fine}`];
		await deliverAll(deps);
		expect(await world.db.broadcastRecipient.findFirst({ where: { broadcastId: third } })).toMatchObject({
			state: 'blocked',
			error: 'blocked the bot'
		});
		expect((await world.emulator.control.callCounts()).byChat[`sendMessage:${fine}`]).toBe(callsBefore);
	});

	it('opts a guest out at once from the button and from /stop, and forgets their rows with them', async () => {
		const { world, deps } = await setUp();
		const now = world.clock.now().toISOString();
		const [presser, stopper, stays] = await seedGuests(world.db, world.emulator, [{ language: 'ru' }, {}, {}], now);
		const first = await queueBroadcast(world.db, 'Hello m4', null, now);
		await deliverAll(deps);
		const message = (await world.emulator.control.chatMessages(presser!)).find((m) => m.text?.includes('Hello m4'))!;
		expect(message.buttons.flat()[0]?.text).toBe('🔕 Больше не присылать');
		await world.emulator.control.pressButton({
			user_id: presser!,
			message_id: message.message_id,
			callback_data: message.buttons.flat()[0]!.callback_data!
		});
		await world.emulator.control.sendUserMessage({ user_id: stopper!, text: '/stop' });
		await world.emulator.control.waitForMessage(presser!, (m) => m.from_bot && !!m.text?.startsWith('Готово'));
		await world.emulator.control.waitForMessage(
			stopper!,
			(m) => m.from_bot && !!m.text?.startsWith('Done: we will not send')
		);
		expect(await world.db.newsOptIn.findUnique({ where: { telegramUserId: BigInt(presser!) } })).toMatchObject({
			state: 'out',
			via: 'broadcast_button',
			broadcastId: first,
			locale: 'ru'
		});
		expect(await world.db.newsOptIn.findUnique({ where: { telegramUserId: BigInt(stopper!) } })).toMatchObject({
			state: 'out',
			via: 'stop',
			broadcastId: null
		});

		const second = await queueBroadcast(world.db, 'Again m4', null, world.clock.now().toISOString());
		await deliverAll(deps);
		const counts = await countDeliveries(world.emulator, [presser!, stopper!, stays!], 'Again m4');
		expect([...counts.values()]).toEqual([0, 0, 1]);
		expect(await world.db.broadcastRecipient.count({ where: { broadcastId: second } })).toBe(1);

		await eraseGuest(
			{ db: world.db, clock: world.clock, fileStore: world.fileStore, pseudonymKey: Buffer.alloc(32, 1) },
			BigInt(presser!),
			'forget'
		);
		expect(await world.db.broadcastRecipient.count({ where: { telegramUserId: BigInt(presser!) } })).toBe(0);
		expect(await world.db.newsOptIn.count({ where: { telegramUserId: BigInt(presser!) } })).toBe(0);
	});

	it('pauses and resumes; an opt-out during a send skips the guest; a test send goes to the operator only', async () => {
		const { world, deps } = await setUp();
		const now = () => world.clock.now().toISOString();
		const guests = await seedGuests(
			world.db,
			world.emulator,
			Array.from({ length: 6 }, () => ({})),
			now()
		);
		const [operatorChat] = await seedGuests(world.db, world.emulator, [{ consented: false }], now());
		const id = await queueBroadcast(world.db, 'Paced m5', null, now());
		await queueTestSend(world.db, now(), id, BigInt(operatorChat!));
		expect((await pauseBroadcast(world.db, now(), id)).won).toBe(true);
		await deliverAll(deps, 3);
		// Paused before it started: only the test send went out, and nobody was chosen yet.
		expect((await countDeliveries(world.emulator, [operatorChat!], 'Paced m5')).get(operatorChat!)).toBe(1);
		expect(await world.db.broadcastRecipient.count({ where: { broadcastId: id, test: false } })).toBe(0);

		expect((await resumeBroadcast(world.db, now(), id)).won).toBe(true);
		await deliverBroadcasts({ ...deps, api: failingAfter(world.emulator.url, 2) });
		await optOutOfBroadcasts(world.db, world.clock, BigInt(guests[5]!), 'stop', 'en');
		expect((await pauseBroadcast(world.db, now(), id)).won).toBe(true);
		world.clock.advance(60_000);
		await deliverAll(deps, 3);
		expect([...(await countDeliveries(world.emulator, guests, 'Paced m5')).values()]).toEqual([1, 1, 0, 0, 0, 0]);

		expect((await resumeBroadcast(world.db, now(), id)).won).toBe(true);
		await deliverAll(deps);
		expect([...(await countDeliveries(world.emulator, guests, 'Paced m5')).values()]).toEqual([1, 1, 1, 1, 1, 0]);
		expect(
			await world.db.broadcastRecipient.findFirst({ where: { broadcastId: id, telegramUserId: BigInt(guests[5]!) } })
		).toMatchObject({ state: 'skipped', error: 'opted out' });
		expect(await world.db.broadcast.findUniqueOrThrow({ where: { id } })).toMatchObject({ state: 'done' });
	});

	it('cancels: nothing more is sent and the rows left are recorded as skipped', async () => {
		const { world, deps } = await setUp();
		const now = () => world.clock.now().toISOString();
		const guests = await seedGuests(
			world.db,
			world.emulator,
			Array.from({ length: 4 }, () => ({})),
			now()
		);
		const id = await queueBroadcast(world.db, 'Cancelled m6', null, now());
		await deliverBroadcasts({ ...deps, api: failingAfter(world.emulator.url, 1) });
		expect((await cancelBroadcast(world.db, now(), id)).won).toBe(true);
		world.clock.advance(60_000);
		await deliverAll(deps, 3);
		expect([...(await countDeliveries(world.emulator, guests, 'Cancelled m6')).values()]).toEqual([1, 0, 0, 0]);
		expect(
			await world.db.broadcastRecipient.count({ where: { broadcastId: id, state: 'skipped', error: 'cancelled' } })
		).toBe(3);
		expect((await cancelBroadcast(world.db, now(), id)).won).toBe(false);
	});
});

/** A client whose sends after the first `n` fail like a network error before reaching Telegram. */
function failingAfter(apiRoot: string, n: number): Api {
	let calls = 0;
	const api = new Api(EMULATOR_BOT_TOKEN, { apiRoot });
	api.config.use((prev, method, payload, signal) => {
		if (method === 'sendMessage' && ++calls > n) throw new Error('network down');
		return prev(method, payload, signal);
	});
	return api;
}

describe('a 429 hold another worker writes during a pass', () => {
	it('puts the claimed guest back until the hold ends, without an attempt, instead of sleeping through it', async () => {
		const { world, deps, sends } = await setUp();
		const now = world.clock.now().toISOString();
		const guests = await seedGuests(world.db, world.emulator, [{}], now);
		await queueBroadcast(world.db, 'Held', null, now);
		const holdEnds = world.clock.now().getTime() + 30_000;
		const sleeps: number[] = [];
		// The hold lands right after the pass looked (the pass's own check still saw none).
		class HoldAfterTheLook extends BotBudget {
			looked = false;
			override async holdMs(): Promise<number> {
				if (this.looked) return super.holdMs();
				this.looked = true;
				await this.holdBulk(holdEnds);
				return 0;
			}
		}
		const racing = new HoldAfterTheLook(world.db, world.clock, 'test');
		await deliverBroadcasts({
			...deps,
			budget: racing,
			sleep: async (ms) => {
				sleeps.push(ms);
				world.clock.advance(ms);
			}
		});
		expect(sends).toHaveLength(0);
		expect(sleeps.filter((ms) => ms > 1000)).toEqual([]);
		const row = await world.db.broadcastRecipient.findFirstOrThrow({ where: { telegramUserId: BigInt(guests[0]!) } });
		expect([row.state, row.attempts, row.nextAttemptAt]).toEqual(['queued', 0, new Date(holdEnds).toISOString()]);
	});
});
