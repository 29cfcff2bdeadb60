import { autoRetry } from '@grammyjs/auto-retry';
import type { Api } from 'grammy';

/**
 * How the bot's Telegram client (shared by the bot, the job loop and the guest tasks) treats flood
 * control and server errors: wait the `retry_after` Telegram names, retry 5xx and network errors,
 * but never forever — a request that still fails is rethrown so the caller can record the error
 * and back off on its own schedule instead of blocking a worker slot. The lead outboxes use their
 * own client without retries (outbox-api.ts).
 */
export const TELEGRAM_RETRY_POLICY = {
	maxRetryAttempts: 4,
	maxDelaySeconds: 30,
	rethrowInternalServerErrors: false,
	rethrowHttpErrors: false
} as const;

export function applyTelegramRetryPolicy(api: Api): void {
	api.config.use(autoRetry(TELEGRAM_RETRY_POLICY));
}
