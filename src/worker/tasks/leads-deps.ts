import { Api, GrammyError } from 'grammy';
import type { Locale } from '../../lib/i18n/locale.ts';
import type { Db } from '../../lib/server/db/client.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import type { Clock } from '../../lib/server/time/clock.ts';
import { SECOND } from '../../lib/server/time/clock.ts';

/** What every leads task takes: plain arguments, so tests pass a FakeClock and the emulator. */
export interface LeadsTaskDeps {
	db: Db;
	clock: Clock;
	logger: Logger;
	api: Api;
	/** The sales group; null = not configured (leads wait in the outbox). */
	chatId: bigint | null;
	locale: Locale;
	cooldown: ChatCooldown;
	random?: () => number;
}

/** How long a claimed outbox row is left alone; longer than one Telegram call may take. */
export const OUTBOX_LEASE_MS = 2 * 60 * SECOND;
const REQUEST_TIMEOUT_SECONDS = 30;

/**
 * The outboxes' own Telegram client, without the auto-retry the bot uses: a network error or 5xx
 * on sendMessage is ambiguous (the message may have been posted), and a blind retry inside the
 * same call is how cards get posted twice. Failures go back to the outbox instead, which retries
 * on its own schedule and honours 429's retry_after through next_publish_at.
 */
export function createLeadsApi(telegram: { token: string; apiRoot: string }): Api {
	return new Api(telegram.token, { apiRoot: telegram.apiRoot, timeoutSeconds: REQUEST_TIMEOUT_SECONDS });
}

/**
 * Flood control per chat (RELIABILITY R5): after a 429 with retry_after=N, no leads task writes
 * to that chat for N seconds — the next card, ping or digest waits its turn.
 */
export class ChatCooldown {
	readonly #until = new Map<string, number>();

	pause(chatId: bigint, untilMs: number): void {
		const key = String(chatId);
		this.#until.set(key, Math.max(untilMs, this.#until.get(key) ?? 0));
	}

	isCooling(chatId: bigint, now: Date): boolean {
		return (this.#until.get(String(chatId)) ?? 0) > now.getTime();
	}
}

/** Telegram's retry_after of a 429, in ms (0 for any other error). */
export function retryAfterMs(error: unknown): number {
	if (error instanceof GrammyError && error.error_code === 429) return (error.parameters.retry_after ?? 1) * SECOND;
	return 0;
}

/** Notes a 429 on the chat; returns its wait in ms (0 when the error was something else). */
export function noteFloodControl(deps: Pick<LeadsTaskDeps, 'cooldown' | 'clock'>, chatId: bigint, error: unknown): number {
	const wait = retryAfterMs(error);
	if (wait > 0) deps.cooldown.pause(chatId, deps.clock.now().getTime() + wait);
	return wait;
}

export function isNotModified(error: unknown): boolean {
	return error instanceof GrammyError && /message is not modified/i.test(error.description);
}

/** Edits that can never succeed (the card was deleted, or is too old to edit). */
export function isCardGone(error: unknown): boolean {
	return error instanceof GrammyError && /message to edit not found|message can't be edited|chat not found/i.test(error.description);
}
