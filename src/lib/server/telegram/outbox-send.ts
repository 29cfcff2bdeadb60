import type { Logger } from '../log/logger.ts';
import { isBlockedByUser, isUnreachableChat, retryAfterMs } from './errors.ts';

/**
 * The shared steps of every outbox that writes to people (lead cards, guest notices, broadcasts):
 *
 *   claim the row → send → record the result at once (recordRightAfterSend)
 *                        ↘ on failure: readSendFailure says whether to retry and how long to wait
 *
 * The claim and the row's shape are each outbox's own; what a Telegram failure means and how hard
 * to try to record a send that did happen are the same for all.
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

const RECORD_RETRIES = 5;
const RECORD_RETRY_STEP_MS = 200;

/**
 * Records a send Telegram accepted, retried a few times because losing this write means the row
 * is sent again after its lease — the one duplicate window an outbox without an idempotency key
 * keeps. Rethrows after the last try (the caller's task logs it and the lease decides).
 */
export async function recordRightAfterSend<T>(record: () => Promise<T>, logger: Logger, what: Record<string, unknown>): Promise<T> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await record();
		} catch (error) {
			if (attempt >= RECORD_RETRIES) {
				logger.error({ err: error, ...what }, 'sent but not recorded: it will be sent again after the lease');
				throw error;
			}
			await new Promise((resolve) => setTimeout(resolve, RECORD_RETRY_STEP_MS * attempt));
		}
	}
}
