import { randomUUID } from 'node:crypto';
import { Api } from 'grammy';
import { createBroadcast, scheduleBroadcast } from '../../src/lib/server/broadcasts/broadcasts.repository.ts';
import { EMULATOR_BOT_TOKEN } from '../../src/lib/server/config/config.ts';
import type { Db } from '../../src/lib/server/db/client.ts';
import type { FileStore } from '../../src/lib/server/files/file-store.ts';
import { enqueueJob } from '../../src/lib/server/jobs/job.repository.ts';
import { receiveLead } from '../../src/lib/server/leads/lead-intake.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import type { CallRecord } from '../../tools/telegram-emulator/counters.ts';
import type { TelegramEmulator } from '../../tools/telegram-emulator/server.ts';

/**
 * The load of issue #26's send-budget check, shared by `bench/telegram-send-budget.ts` and
 * `tests/integration/postgres/pg-fleet-send-budget.test.ts` (free of vitest): news recipients for a
 * broadcast, guests whose packs are queued, landing leads whose cards go to the sales group — and
 * the figures Telegram would see, read from the emulator's log of Bot API arrivals.
 */

/**
 * The Bot API calls that put a message in a chat or change one, as Telegram counts them against a
 * bot's limits. Written here, not taken from the product's list, so a method the product forgot to
 * pace would still be counted.
 */
const MESSAGE_METHODS = new Set([
	'sendMessage',
	'sendPhoto',
	'sendMediaGroup',
	'sendSticker',
	'sendDocument',
	'editMessageText',
	'editMessageCaption',
	'editMessageReplyMarkup',
	'copyMessage',
	'forwardMessage'
]);

export interface ArrivalFigures {
	/** Message calls the emulator received (faulted ones included: Telegram counts them too). */
	messages: number;
	/** The most message arrivals inside any 1 s window, the whole bot. */
	peakPerSecond: number;
	/** The most arrivals to one private chat inside any 1 s window, and the chat. */
	maxPerChatPerSecond: number;
	busiestChat: number | null;
	/** The shortest time between two arrivals to one private chat (null: no chat got two), and those two calls' methods. */
	closestChatGapMs: number | null;
	closestChatPair: [string, string] | null;
	/** The most arrivals to one group inside any 60 s window. */
	maxPerGroupPerMinute: number;
	/** The shortest time between two arrivals to one group (null: no group got two). */
	closestGroupGapMs: number | null;
	/** First to last message arrival. */
	spanMs: number;
}

const isMessage = (call: CallRecord): call is CallRecord & { chat_id: number } =>
	MESSAGE_METHODS.has(call.method) && typeof call.chat_id === 'number' && call.outcome !== 'dropped';

/** The most of `times` (sorted) inside any window of `windowMs` that starts at one of them: [t, t + windowMs). */
export function peakInWindow(times: readonly number[], windowMs: number): number {
	let peak = 0;
	let first = 0;
	for (let last = 0; last < times.length; last++) {
		while (times[last]! - times[first]! >= windowMs) first++;
		peak = Math.max(peak, last - first + 1);
	}
	return peak;
}

function closestGap(sorted: readonly number[]): number | null {
	let closest: number | null = null;
	for (let i = 1; i < sorted.length; i++) closest = Math.min(closest ?? Infinity, sorted[i]! - sorted[i - 1]!);
	return closest;
}

/** What the Bot API saw, from the emulator's arrival log (calls at or after `fromMs`). */
export function arrivalFigures(calls: readonly CallRecord[], fromMs = 0): ArrivalFigures {
	const messages = calls.filter(isMessage).filter((call) => call.at >= fromMs);
	const times = messages.map((call) => call.at).sort((a, b) => a - b);
	const byChat = new Map<number, number[]>();
	for (const call of messages) byChat.set(call.chat_id, [...(byChat.get(call.chat_id) ?? []), call.at]);
	let closestChatPair: [string, string] | null = null;
	let maxPerChatPerSecond = 0;
	let busiestChat: number | null = null;
	let closestChatGapMs: number | null = null;
	let maxPerGroupPerMinute = 0;
	let closestGroupGapMs: number | null = null;
	for (const [chat, unsorted] of byChat) {
		const chatTimes = unsorted.sort((a, b) => a - b);
		const gap = closestGap(chatTimes);
		if (chat < 0) {
			maxPerGroupPerMinute = Math.max(maxPerGroupPerMinute, peakInWindow(chatTimes, 60_000));
			if (gap !== null && (closestGroupGapMs === null || gap < closestGroupGapMs)) closestGroupGapMs = gap;
			continue;
		}
		const peak = peakInWindow(chatTimes, 1000);
		if (peak > maxPerChatPerSecond) [maxPerChatPerSecond, busiestChat] = [peak, chat];
		if (gap !== null && (closestChatGapMs === null || gap < closestChatGapMs)) {
			closestChatGapMs = gap;
			const pair = messages.filter((call) => call.chat_id === chat).sort((a, b) => a.at - b.at);
			const at = pair.findIndex((call, i) => i > 0 && call.at - pair[i - 1]!.at === gap);
			closestChatPair = [pair[at - 1]!.method, pair[at]!.method];
		}
	}
	return {
		messages: times.length,
		peakPerSecond: peakInWindow(times, 1000),
		maxPerChatPerSecond,
		busiestChat,
		closestChatGapMs,
		closestChatPair,
		maxPerGroupPerMinute,
		closestGroupGapMs,
		spanMs: times.length ? times.at(-1)! - times[0]! : 0
	};
}

/**
 * `count` guests who started the bot and said yes to news (the broadcast's audience), made in bulk.
 * Their /start updates are confirmed before any worker polls, so no worker answers them.
 */
export async function seedNewsRecipients(db: Db, emulator: TelegramEmulator, count: number): Promise<number[]> {
	const ids: number[] = [];
	for (let from = 0; from < count; from += 25) {
		const batch = Array.from({ length: Math.min(25, count - from) }, (_, i) => from + i);
		ids.push(
			...(await Promise.all(
				batch.map(async (n) => {
					const user = await emulator.control.createUser({ first_name: `Reader${n}`, language_code: 'en' });
					await emulator.control.sendUserMessage({ user_id: user.id, text: '/start' });
					return user.id;
				})
			))
		);
	}
	await confirmPendingUpdates(emulator);
	const now = new Date().toISOString();
	const telegramUserIds = ids.map(BigInt);
	await db.user.createMany({
		data: telegramUserIds.map((telegramUserId, n) => ({
			telegramUserId,
			firstName: `Reader${n}`,
			consentedAt: now,
			createdAt: now
		}))
	});
	await db.guestLanguage.createMany({
		data: telegramUserIds.map((telegramUserId) => ({ telegramUserId, locale: 'en', updatedAt: now }))
	});
	await db.newsOptIn.createMany({
		data: telegramUserIds.map((telegramUserId) => ({
			telegramUserId,
			state: 'in',
			wordingVersion: 'news-question-1',
			locale: 'en',
			askedAt: now,
			answeredAt: now,
			via: 'button',
			updatedAt: now
		}))
	});
	return ids;
}

async function confirmPendingUpdates(emulator: TelegramEmulator): Promise<void> {
	const api = new Api(EMULATOR_BOT_TOKEN, { apiRoot: emulator.url });
	const pending = await api.getUpdates({ timeout: 0 });
	const last = pending.at(-1);
	if (last) await api.getUpdates({ offset: last.update_id + 1, timeout: 0 });
}

/** A broadcast to every opted-in guest, due now, as the console's "Send" makes it. */
export async function queueNewsBroadcast(db: Db, text: string): Promise<number> {
	const now = new Date().toISOString();
	const broadcast = await createBroadcast(db, now, {
		eventId: null,
		text,
		imagePath: null,
		buttonText: null,
		buttonUrl: null,
		createdBy: 'send-budget load'
	});
	await scheduleBroadcast(db, now, broadcast.id, now);
	return broadcast.id;
}

/** How many copies with `marker` each recipient's chat holds: lost (0) and doubled (> 1) recipients. */
export async function broadcastCopies(
	emulator: TelegramEmulator,
	chatIds: readonly number[],
	marker: string
): Promise<{ lost: number[]; doubled: number[] }> {
	const lost: number[] = [];
	const doubled: number[] = [];
	for (const id of chatIds) {
		const copies = (await emulator.control.chatMessages(id)).filter(
			(m) => m.from_bot && (m.text ?? '').includes(marker)
		).length;
		if (copies === 0) lost.push(id);
		if (copies > 1) doubled.push(id);
	}
	return { lost, doubled };
}

/** Landing leads (numbered from `first`): each becomes a card in the sales group (20 a minute at most, per Telegram). */
export async function seedLeads(db: Db, count: number, first = 0): Promise<void> {
	for (let n = first; n < first + count; n++) {
		const phone = `+99891${String(1_000_000 + n)}`;
		const result = await receiveLead(
			{ db, clock: systemClock },
			{
				requestId: randomUUID(),
				name: `Load ${n}`,
				telegram: `@load_${n}`,
				phone,
				eventDate: '15 June',
				guests: '200',
				comment: '',
				locale: 'en',
				utmSource: undefined,
				ipHash: randomUUID().replace(/-/g, '')
			}
		);
		if (result.outcome !== 'lead') throw new Error(`lead ${n} was not taken: ${result.outcome}`);
	}
}

export interface PackFixtures {
	selfie: Buffer;
	faceCrop: Buffer;
}

/** A guest who started the bot, their selfie in the store, and their pack's job queued (as a kiosk upload does); the benchmarks seed their fleets' jobs with it too. */
export async function seedPackGuest(
	db: Db,
	emulator: TelegramEmulator,
	files: FileStore,
	fixtures: PackFixtures,
	n: number
): Promise<{ guestId: number; jobId: number }> {
	const guest = await emulator.control.createUser({ first_name: `Guest ${n}`, language_code: 'en' });
	await emulator.control.sendUserMessage({ user_id: guest.id, text: '/start' });
	const now = new Date().toISOString();
	const telegramUserId = BigInt(guest.id);
	const token = `budget${n}${Date.now().toString(36)}`;
	const photoPath = `sessions/${token}/selfie_${n.toString(16).padStart(16, '0')}.jpg`;
	await files.put(photoPath, fixtures.selfie);
	await files.put(`sessions/${token}/face_crop.jpg`, fixtures.faceCrop);
	await db.user.create({ data: { telegramUserId, firstName: `Guest ${n}`, consentedAt: now, createdAt: now } });
	await db.session.create({
		data: {
			sessionToken: token,
			telegramUserId,
			templateId: 'tuxedo',
			status: 'photo_taken',
			createdAt: now,
			updatedAt: now
		}
	});
	const jobId = await db.$transaction((tx) =>
		enqueueJob(tx, { telegramUserId, sessionToken: token, photoPath, templateId: 'tuxedo', now })
	);
	return { guestId: guest.id, jobId };
}
