/**
 * The last step of every outbox's claim → send → record: Telegram has done the thing (posted a
 * card, sent a message), now the row must say so. Retried a few times, because losing this write
 * is the one way an outbox sends twice (after the lease the row is due again); if it still fails,
 * the caller's `onGiveUp` logs it and the error is rethrown.
 */
const RECORD_RETRIES = 5;

export async function recordAfterSend(
	record: () => Promise<void>,
	onGiveUp: (error: unknown) => void,
	wait: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
): Promise<void> {
	for (let attempt = 1; ; attempt++) {
		try {
			await record();
			return;
		} catch (error) {
			if (attempt >= RECORD_RETRIES) {
				onGiveUp(error);
				throw error;
			}
			await wait(200 * attempt);
		}
	}
}

/** Errors kept on an outbox row are short and never hold a stack. */
export function describeFailure(error: unknown, max = 300): string {
	const text = error instanceof Error ? error.message : String(error);
	return text.replace(/\s+/g, ' ').trim().slice(0, max);
}
