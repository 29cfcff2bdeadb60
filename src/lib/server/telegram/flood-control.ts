import type { Clock } from '../time/clock.ts';
import { retryAfterMs } from './errors.ts';

/**
 * Flood control per chat: after a 429 with retry_after=N, nothing of ours writes
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

/** Notes a 429 on the chat; returns its wait in ms (0 when the error was something else). */
export function noteFloodControl(
	deps: { cooldown: ChatCooldown; clock: Clock },
	chatId: bigint,
	error: unknown
): number {
	const wait = retryAfterMs(error);
	if (wait > 0) deps.cooldown.pause(chatId, deps.clock.now().getTime() + wait);
	return wait;
}
