import type { Logger } from '../log/logger.ts';

const RECORD_RETRIES = 5;
const RECORD_RETRY_STEP_MS = 200;

/**
 * Records a send Telegram accepted, retried a few times because losing this write means the row
 * is sent again after its lease — the one duplicate window an outbox without an idempotency key
 * keeps. Rethrows after the last try (the caller's task logs it and the lease decides).
 */
export async function recordRightAfterSend<T>(
	record: () => Promise<T>,
	logger: Logger,
	what: Record<string, unknown>
): Promise<T> {
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
