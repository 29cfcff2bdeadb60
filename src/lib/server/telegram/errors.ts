import { GrammyError } from 'grammy';
import { SECOND } from '../time/clock.ts';

/** What Telegram's error answers mean to us, read in one place by the bot, the jobs and the tasks. */

/** An edit that would change nothing: an edit repeated after a crash, or a card already up to date. */
export function isNotModified(error: unknown): boolean {
	return error instanceof GrammyError && /message is not modified/i.test(error.description);
}

/** Edits that can never succeed (the message was deleted, is too old to edit, or its chat is gone). */
export function isUneditable(error: unknown): boolean {
	return (
		error instanceof GrammyError &&
		/message to edit not found|message can't be edited|chat not found/i.test(error.description)
	);
}

/** The sticker set does not exist (never created, or deleted already): Telegram answers STICKERSET_INVALID. */
export function isStickerSetMissing(error: unknown): boolean {
	return error instanceof GrammyError && /STICKERSET_INVALID|not found/i.test(error.description);
}

/**
 * Telegram (400) refused a video sticker: its checks differ from ours (STICKER_VIDEO_LONG,
 * STICKER_VIDEO_BIG, a format it does not take). Nothing was created, so the pack can go still.
 */
export function isVideoStickerRefused(error: unknown): boolean {
	return (
		error instanceof GrammyError &&
		error.error_code === 400 &&
		/STICKER_VIDEO|video|webm|sticker format/i.test(error.description)
	);
}

/** 403: the person blocked the bot — their choice, nothing to retry or to apologise for. */
export function isBlockedByUser(error: unknown): boolean {
	return error instanceof GrammyError && error.error_code === 403;
}

/** Blocked (403) or no such chat (400): writing to this person again fails the same way. */
export function isUnreachableChat(error: unknown): boolean {
	return error instanceof GrammyError && (error.error_code === 403 || error.error_code === 400);
}

/** Telegram's retry_after of a 429, in ms (0 for any other error). */
export function retryAfterMs(error: unknown): number {
	if (error instanceof GrammyError && error.error_code === 429) return (error.parameters.retry_after ?? 1) * SECOND;
	return 0;
}

/**
 * What a failed send means for an outbox row (read by the outbox driver's failure ladder,
 * outbox/failure-ladder.ts).
 */
export type SendFailure =
	/** 403: the person blocked the bot — mark them, never retry. */
	| { outcome: 'blocked' }
	/** 400 chat not found and the like: writing again fails the same way. */
	| { outcome: 'unreachable' }
	/** 429, 5xx, a timeout or a dropped connection: retry, never sooner than `retryAfterMs` (429's retry_after). */
	| { outcome: 'retry'; retryAfterMs: number };

export function readSendFailure(error: unknown): SendFailure {
	if (isBlockedByUser(error)) return { outcome: 'blocked' };
	if (isUnreachableChat(error)) return { outcome: 'unreachable' };
	return { outcome: 'retry', retryAfterMs: retryAfterMs(error) };
}
