import type { Db } from '../db/client.ts';
import type { FileStore } from '../files/file-store.ts';
import { markBotBlocked } from '../guests/bot-blocked.ts';
import { readGuestLanguage } from '../guests/guest-profile.ts';
import type { Locale } from '../../i18n/locale.ts';
import type { OutboxSender } from '../outbox/outbox-driver.ts';
import type { TelegramApi } from '../telegram/api.ts';
import { sendBroadcastMessage, type BroadcastContent, type SentBroadcast } from '../telegram/broadcast-message.ts';
import { MINUTE, SECOND, type Clock } from '../time/clock.ts';
import { readStanding, type Standing } from './audience.ts';
import {
	claimNextRecipient,
	closeRecipient,
	recordRecipientFailure,
	recordRecipientSent,
	type ClaimedRecipient
} from './broadcast-recipients.repository.ts';
import { readBroadcastImage } from './broadcast-image.ts';
import { recordImageFileId } from './broadcasts.repository.ts';
import { BROADCAST_MAX_ATTEMPTS, RECIPIENT_REASON } from './recipient-reasons.ts';
import { readTestSendStanding } from './test-send.ts';

/**
 * The broadcast outbox as a sender of the outbox driver (outbox/outbox-driver.ts): each guest of a
 * broadcast gets its message once.
 *
 *   claim (next_attempt_at = now + lease) → sendMessage/sendPhoto → record message_id, state sent
 *
 * The bulk lane of the bot's budget (≈22/s, never the guests' reserve, 1/s per chat; a 429's
 * retry_after holds the lane for every worker and never counts as an attempt). Before each send the
 * guest's standing is read again (a test copy's too, test-send.ts): opted out, blocked or gone since
 * the audience was chosen → the row is closed without a call. A 403 marks the guest as having
 * blocked the bot; a 400 fails the row; 5xx and network errors back off up to MAX_ATTEMPTS. The
 * remaining duplicate window: Telegram accepted the message but we never recorded it (the process
 * died between Telegram's answer and the UPDATE, or the answer was lost on the way back); after the
 * lease the row is due again and that guest gets the message twice.
 */
export interface BroadcastOutboxDeps {
	db: Db;
	clock: Clock;
	api: TelegramApi;
	leaseMs: number;
	fileStore: FileStore;
}

export const BROADCAST_CRASH_STEPS = ['broadcast_after_claim', 'broadcast_after_send'] as const;
export type BroadcastCrashStep = (typeof BROADCAST_CRASH_STEPS)[number];
export const MAX_ATTEMPTS = BROADCAST_MAX_ATTEMPTS;

interface BroadcastMessage {
	locale: Locale;
}

const STANDING_REASON: Record<Exclude<Standing, 'ok'>, string> = {
	gone: RECIPIENT_REASON.gone,
	not_opted_in: RECIPIENT_REASON.notOptedIn,
	opted_out: RECIPIENT_REASON.optedOut,
	blocked: RECIPIENT_REASON.blockedKnown
};

export function broadcastOutbox(
	deps: BroadcastOutboxDeps
): OutboxSender<ClaimedRecipient, BroadcastMessage, SentBroadcast> {
	const nowIso = () => deps.clock.now().toISOString();
	return {
		name: 'broadcast message',
		perPass: Number.MAX_SAFE_INTEGER,
		// One pass sends for at most this long, so shutdown and new broadcasts are never kept waiting.
		passMs: 10 * SECOND,
		ladder: {
			backoff: { baseMs: 5 * SECOND, capMs: 10 * MINUTE, jitter: [0.8, 1.2] },
			maxAttempts: MAX_ATTEMPTS,
			recipient: 'person',
			floodCountsAsAttempt: false
		},
		places: 'bulk',
		crashSteps: { afterClaim: 'broadcast_after_claim', afterSend: 'broadcast_after_send' },
		claim: (now) => claimNextRecipient(deps.db, now, deps.leaseMs),
		attempt: (row) => row.attempts + 1,
		chatId: (row) => row.telegramUserId,
		describe: (row) => ({ recipientId: row.id, broadcastId: row.broadcastId }),
		async prepare(row) {
			// A test copy is checked too (opted out or blocked since the operator pressed the button).
			const standing = row.test
				? await readTestSendStanding(deps.db, row.telegramUserId)
				: await readStanding(deps.db, row.telegramUserId);
			if (standing !== 'ok')
				return { end: standing === 'blocked' ? 'blocked' : 'skipped', reason: STANDING_REASON[standing] };
			return { message: { locale: await readGuestLanguage(deps.db, row.telegramUserId) } };
		},
		send: async (row, message) =>
			sendBroadcastMessage(
				deps.api,
				row.telegramUserId,
				message.locale,
				await withPicture(deps.fileStore, row.broadcast)
			),
		async recordSent(row, _message, sent) {
			await recordRecipientSent(deps.db, nowIso(), row.id, BigInt(sent.messageId));
			if (sent.photoFileId) await recordImageFileId(deps.db, row.broadcastId, sent.photoFileId);
		},
		postpone: (row, retryAt, error, counts) =>
			recordRecipientFailure(deps.db, nowIso(), row.id, error ?? RECIPIENT_REASON.noPlace, retryAt, counts),
		async end(row, as, reason, called) {
			if (as === 'skipped') return closeRecipient(deps.db, nowIso(), row.id, 'skipped', reason);
			if (as !== 'blocked') return recordRecipientFailure(deps.db, nowIso(), row.id, reason, null);
			if (!called) return closeRecipient(deps.db, nowIso(), row.id, 'blocked', reason);
			await markBotBlocked(deps.db, deps.clock, row.telegramUserId);
			await closeRecipient(deps.db, nowIso(), row.id, 'blocked', RECIPIENT_REASON.blockedOnSend);
		}
	};
}

/** The picture's bytes from the store, unless Telegram already has it by file_id. */
async function withPicture(fileStore: FileStore, content: BroadcastContent): Promise<BroadcastContent> {
	if (!content.imagePath || content.imageFileId) return content;
	const image = await readBroadcastImage(fileStore, content.imagePath);
	if (!image) throw new Error('the broadcast’s picture is gone from the file store');
	return { ...content, image };
}
