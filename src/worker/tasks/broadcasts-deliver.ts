import { readStanding, type Standing } from '../../lib/server/broadcasts/audience.ts';
import {
	claimNextRecipient,
	closeRecipient,
	recordRecipientFailure,
	recordRecipientSent,
	type ClaimedRecipient
} from '../../lib/server/broadcasts/broadcast-recipients.repository.ts';
import { readBroadcastImage } from '../../lib/server/broadcasts/broadcast-image.ts';
import { readTestSendStanding } from '../../lib/server/broadcasts/test-send.ts';
import { finishDrainedBroadcasts, recordImageFileId, startDueBroadcasts } from '../../lib/server/broadcasts/broadcasts.repository.ts';
import type { Config } from '../../lib/server/config/config.ts';
import type { Db } from '../../lib/server/db/client.ts';
import type { FileStore } from '../../lib/server/files/file-store.ts';
import { createCrashPoint } from '../../lib/server/jobs/run/crash-points.ts';
import { markBotBlocked } from '../../lib/server/guests/bot-blocked.ts';
import { readGuestLanguage } from '../../lib/server/guests/guest-profile.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import type { TelegramApi } from '../../lib/server/telegram/api.ts';
import { sendBroadcastMessage, type BroadcastContent } from '../../lib/server/telegram/broadcast-message.ts';
import { readSendFailure } from '../../lib/server/telegram/errors.ts';
import { recordRightAfterSend } from '../../lib/server/outbox/record-after-send.ts';
import { createOutboxApi } from '../../lib/server/telegram/outbox-api.ts';
import type { BotBudget } from '../../lib/server/telegram/bot-budget.ts';
import { computeBackoffMs, type BackoffPolicy } from '../../lib/server/time/backoff.ts';
import { MINUTE, SECOND, type Clock } from '../../lib/server/time/clock.ts';
import { errorText } from '../../lib/server/errors/error-text.ts';

/**
 * The broadcast outbox: each guest of a broadcast gets its message once.
 *
 *   claim (next_attempt_at = now + lease) → sendMessage/sendPhoto → record message_id, state sent
 *
 * paced as the bulk lane of the bot's budget (bot-budget.ts: ≈22/s, never the guests' reserve, 1/s per chat; a 429's retry_after holds the lane).
 * Before each send the guest's standing is read again (a test copy's too, test-send.ts): opted out, blocked or gone since the
 * audience was chosen → the row is closed without a call. A 403 marks the guest as having blocked
 * the bot. 5xx and network errors back off (the shared formula) up to MAX_ATTEMPTS; a 429 holds
 * the broadcasts for its retry_after and never counts as an attempt. The remaining duplicate window: Telegram accepted the message but we never recorded
 * it — the process died between Telegram's answer and the UPDATE (a few milliseconds), or the
 * answer itself was lost on the way back (a timeout after Telegram had sent). After the lease the
 * row is due again and that guest gets the message twice. Everything else sends exactly once.
 */
export interface BroadcastDeliveryDeps {
	db: Db;
	clock: Clock;
	logger: Logger;
	api: TelegramApi;
	budget: BotBudget;
	leaseMs: number;
	/** Real time in production; a FakeClock's advance in tests. */
	sleep: (ms: number) => Promise<void>;
	random?: () => number;
	/** Crash injection for the crash tests (jobs/run/crash-points.ts); a no-op otherwise. */
	crashPoint?: (step: BroadcastCrashStep) => void;
	/** Where the pictures are (the process's one store). */
	fileStore: FileStore;
}

/** The broadcast outbox's deps from the worker's config; `budget` is the worker's one send budget. */
export function createBroadcastDeliveryDeps(config: Config, deps: { db: Db; clock: Clock; logger: Logger; budget: BotBudget; fileStore: FileStore }): BroadcastDeliveryDeps {
	return {
		...deps,
		// The outbox client has no auto-retry: a blind retry of an ambiguous failure is a duplicate message.
		api: createOutboxApi(config.telegram),
		leaseMs: config.BROADCAST_LEASE_SECONDS * SECOND,
		sleep: (ms) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve()),
		crashPoint: createCrashPoint()
	};
}

export const BROADCAST_CRASH_STEPS = ['broadcast_after_claim', 'broadcast_after_send'] as const;
export type BroadcastCrashStep = (typeof BROADCAST_CRASH_STEPS)[number];

export const BROADCAST_BACKOFF: BackoffPolicy = { baseMs: 5 * SECOND, capMs: 10 * MINUTE, jitter: [0.8, 1.2] };
export const MAX_ATTEMPTS = 6;
/** One pass sends for at most this long, so shutdown and new broadcasts are never kept waiting. */
const PASS_MS = 10 * SECOND;
/** A wait longer than this (a 429's hold) ends the pass; the next pass picks up after it. */
const MAX_INLINE_WAIT_MS = SECOND;

type Outcome = 'sent' | 'closed' | 'failed';

export async function deliverBroadcasts(deps: BroadcastDeliveryDeps, shouldStop: () => boolean = () => false): Promise<number> {
	const started = await startDueBroadcasts(deps.db, deps.clock.now().toISOString());
	if (started.length > 0) deps.logger.info({ broadcasts: started }, 'broadcasts started');
	const passEnds = deps.clock.now().getTime() + PASS_MS;
	let sent = 0;
	while (!shouldStop() && deps.clock.now().getTime() < passEnds) {
		// Every worker reads the same hold (a 429 anywhere, restarts included).
		const hold = await deps.budget.holdMs();
		if (hold > MAX_INLINE_WAIT_MS) break;
		await deps.sleep(hold);
		const claimed = await claimNextRecipient(deps.db, deps.clock.now(), deps.leaseMs);
		if (!claimed) break;
		deps.crashPoint?.('broadcast_after_claim');
		if ((await deliverOne(deps, claimed)) === 'sent') sent++;
	}
	await finishDrainedBroadcasts(deps.db, deps.clock.now().toISOString());
	return sent;
}

/** The picture's bytes from the store, unless Telegram already has it by file_id. */
async function withPicture(deps: BroadcastDeliveryDeps, content: BroadcastContent): Promise<BroadcastContent> {
	if (!content.imagePath || content.imageFileId) return content;
	const image = await readBroadcastImage(deps.fileStore, content.imagePath);
	if (!image) throw new Error('the broadcast’s picture is gone from the file store');
	return { ...content, image };
}

/** Takes the broadcast's place, sleeping through short waits; a longer one (a hold) comes back. */
async function takeBulkPlace(deps: BroadcastDeliveryDeps, chatId: bigint): Promise<number> {
	for (;;) {
		const wait = await deps.budget.take(chatId, 'bulk');
		if (wait === 0 || wait > MAX_INLINE_WAIT_MS) return wait;
		await deps.sleep(wait);
	}
}

async function deliverOne(deps: BroadcastDeliveryDeps, row: ClaimedRecipient): Promise<Outcome> {
	const chatId = row.telegramUserId;
	// A test copy is checked too (opted out or blocked since the operator pressed the button).
	const standing: Standing = row.test ? await readTestSendStanding(deps.db, chatId) : await readStanding(deps.db, chatId);
	if (standing !== 'ok') {
		await closeRecipient(deps.db, deps.clock.now().toISOString(), row.id, standing === 'blocked' ? 'blocked' : 'skipped', STANDING_REASON[standing]);
		return 'closed';
	}
	const locale = await readGuestLanguage(deps.db, chatId);
	const wait = await takeBulkPlace(deps, chatId);
	if (wait > 0) {
		// Another worker's 429 hold began after this pass looked: the row goes back until it ends
		// (no attempt counted) instead of sleeping through the hold while it stays claimed.
		const now = deps.clock.now();
		await recordRecipientFailure(deps.db, now.toISOString(), row.id, 'waiting out a Telegram flood hold (429)', new Date(now.getTime() + wait), false);
		return 'failed';
	}
	let sent;
	try {
		sent = await sendBroadcastMessage(deps.api, chatId, locale, await withPicture(deps, row.broadcast));
	} catch (error) {
		await recordFailure(deps, row, error);
		return 'failed';
	}
	deps.crashPoint?.('broadcast_after_send');
	await recordRightAfterSend(() => recordRecipientSent(deps.db, deps.clock.now().toISOString(), row.id, BigInt(sent.messageId)), deps.logger, { recipientId: row.id });
	if (sent.photoFileId) await recordImageFileId(deps.db, row.broadcastId, sent.photoFileId);
	return 'sent';
}

const STANDING_REASON: Record<Exclude<Standing, 'ok'>, string> = {
	gone: 'no longer a guest',
	not_opted_in: 'no longer opted in to news',
	opted_out: 'opted out',
	blocked: 'blocked the bot'
};

async function recordFailure(deps: BroadcastDeliveryDeps, row: ClaimedRecipient, error: unknown): Promise<void> {
	const now = deps.clock.now();
	const nowIso = now.toISOString();
	const failure = readSendFailure(error);
	if (failure.outcome === 'blocked') {
		await markBotBlocked(deps.db, deps.clock, row.telegramUserId);
		await closeRecipient(deps.db, nowIso, row.id, 'blocked', 'blocked the bot (403)');
		return;
	}
	if (failure.outcome === 'unreachable') {
		await recordRecipientFailure(deps.db, nowIso, row.id, errorText(error), null);
		return;
	}
	const wait = failure.retryAfterMs;
	if (wait > 0) {
		await deps.budget.holdBulk(now.getTime() + wait);
		await recordRecipientFailure(deps.db, nowIso, row.id, errorText(error), new Date(now.getTime() + wait), false);
		return;
	}
	const attempts = row.attempts + 1;
	const retryAt = attempts >= MAX_ATTEMPTS ? null : new Date(now.getTime() + computeBackoffMs(attempts, BROADCAST_BACKOFF, deps.random));
	await recordRecipientFailure(deps.db, nowIso, row.id, errorText(error), retryAt);
	deps.logger.warn({ recipientId: row.id, attempts, retryAt: retryAt?.toISOString() ?? null, error: errorText(error) }, 'broadcast message not sent');
}
