import { Api } from 'grammy';
import { createBroadcast, scheduleBroadcast } from '../../src/lib/server/broadcasts/broadcasts.repository.ts';
import { EMULATOR_BOT_TOKEN } from '../../src/lib/server/config/config.ts';
import type { Db } from '../../src/lib/server/db/client.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { BotBudget } from '../../src/lib/server/telegram/bot-budget.ts';
import { ChatCooldown } from '../../src/lib/server/telegram/flood-control.ts';
import type { BroadcastDeliveryDeps } from '../../src/worker/tasks/broadcasts-deliver.ts';
import type { TelegramEmulator } from '../../tools/telegram-emulator/server.ts';
import type { GuestWorld } from './guest-harness.ts';

/**
 * Guests for the broadcast tests, made the way the product makes them: each started the bot in
 * the emulator (so the bot may write to them), has a users row, and — for an event — a session
 * started at one of the event's kiosks. Without a bot running (botRunning false) the /start
 * updates are confirmed, so a worker started later does not answer them.
 */
export interface GuestSpec {
	eventId?: number;
	consented?: boolean;
	/** Blocked the bot in Telegram, not yet known to us. */
	blockedInTelegram?: boolean;
	optedOut?: boolean;
	/**
	 * Their news opt-in (news_opt_ins): `in` unless said otherwise — the guests of these tests said
	 * yes — `none` for a guest who did not consent (never asked), `out` for optedOut.
	 */
	news?: 'in' | 'asked' | 'out' | 'none';
	language?: 'en' | 'ru' | 'uz';
}

let kioskCount = 0;

export async function seedGuests(
	db: Db,
	emulator: TelegramEmulator,
	specs: GuestSpec[],
	nowIso = new Date().toISOString(),
	botRunning = true
): Promise<number[]> {
	const ids: number[] = [];
	const toBlock: number[] = [];
	const kiosks = new Map<number, number>();
	for (const [i, spec] of specs.entries()) {
		const user = await emulator.control.createUser({ first_name: `Guest${i}`, language_code: spec.language ?? 'en' });
		await emulator.control.sendUserMessage({ user_id: user.id, text: '/start' });
		if (spec.blockedInTelegram) toBlock.push(user.id);
		const id = BigInt(user.id);
		await db.user.create({
			data: {
				telegramUserId: id,
				firstName: `Guest${i}`,
				consentedAt: spec.consented === false ? null : nowIso,
				createdAt: nowIso
			}
		});
		await db.guestLanguage.create({ data: { telegramUserId: id, locale: spec.language ?? 'en', updatedAt: nowIso } });
		const news = spec.news ?? (spec.optedOut ? 'out' : spec.consented === false ? 'none' : 'in');
		if (news !== 'none') {
			const answered = news === 'asked' ? {} : { via: news === 'out' ? 'stop' : 'button', answeredAt: nowIso };
			await db.newsOptIn.create({
				data: {
					telegramUserId: id,
					state: news,
					wordingVersion: 'news-question-1',
					locale: spec.language ?? 'en',
					askedAt: nowIso,
					updatedAt: nowIso,
					...answered
				}
			});
		}
		const eventId = spec.eventId ?? 1;
		const kioskId = kiosks.get(eventId) ?? (await makeKiosk(db, nowIso));
		kiosks.set(eventId, kioskId);
		const token = `bcast${user.id}`;
		await db.session.create({
			data: { sessionToken: token, telegramUserId: id, status: 'consented', createdAt: nowIso, updatedAt: nowIso }
		});
		await db.kioskSession.create({ data: { sessionToken: token, kioskId, createdAt: nowIso, eventId } });
		ids.push(user.id);
	}
	// A running bot answers each /start; wait for it, so its answer meets no block and no armed fault.
	if (botRunning) for (const id of ids) await emulator.control.waitForMessage(id, (m) => m.from_bot);
	else await confirmPendingUpdates(emulator);
	for (const id of toBlock) await emulator.control.setBlocked(id, true);
	return ids;
}

async function makeKiosk(db: Db, nowIso: string): Promise<number> {
	const n = ++kioskCount;
	const kiosk = await db.kiosk.create({
		data: { name: `broadcast-kiosk-${n}-${Date.now()}`, keyHash: `hash-${n}-${Date.now()}`, createdAt: nowIso }
	});
	return kiosk.id;
}

export async function confirmPendingUpdates(emulator: TelegramEmulator): Promise<void> {
	const api = new Api(EMULATOR_BOT_TOKEN, { apiRoot: emulator.url });
	const pending = await api.getUpdates({ timeout: 0 });
	const last = pending.at(-1);
	if (last) await api.getUpdates({ offset: last.update_id + 1, timeout: 0 });
}

export async function createEvent(db: Db, name: string, nowIso = new Date().toISOString()): Promise<number> {
	const event = await db.event.create({
		data: { name, state: 'live', titleTemplate: '{pack_title}', createdAt: nowIso, updatedAt: nowIso }
	});
	return event.id;
}

/** A broadcast scheduled to start at `sendAtIso` (now by default), as the console's "Send" makes it. */
export async function queueBroadcast(
	db: Db,
	text: string,
	eventId: number | null,
	nowIso = new Date().toISOString(),
	sendAtIso = nowIso
): Promise<number> {
	const broadcast = await createBroadcast(db, nowIso, {
		eventId,
		text,
		imagePath: null,
		buttonText: null,
		buttonUrl: null,
		createdBy: 'test'
	});
	await scheduleBroadcast(db, nowIso, broadcast.id, sendAtIso);
	return broadcast.id;
}

/** How many messages containing `marker` each chat holds. */
export async function countDeliveries(
	emulator: TelegramEmulator,
	chatIds: number[],
	marker: string
): Promise<Map<number, number>> {
	const counts = new Map<number, number>();
	for (const id of chatIds) {
		const messages = await emulator.control.chatMessages(id);
		counts.set(id, messages.filter((m) => (m.text ?? m.caption ?? '').includes(marker)).length);
	}
	return counts;
}

/**
 * What the broadcast task takes, on a guest world: the emulator's API, a fresh send budget and
 * cooldown, the world's FakeClock for waits, jitter in the middle of its range.
 */
export function broadcastDeliveryDeps(w: GuestWorld): BroadcastDeliveryDeps {
	return {
		db: w.db,
		clock: w.clock,
		logger: silentLogger,
		api: new Api(EMULATOR_BOT_TOKEN, { apiRoot: w.emulator.url }),
		budget: new BotBudget(w.db, w.clock, 'test'),
		cooldown: new ChatCooldown(),
		leaseMs: 120_000,
		sleep: async (ms) => w.clock.advance(ms),
		random: () => 0.5,
		fileStore: w.fileStore
	};
}
