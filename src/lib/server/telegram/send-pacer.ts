import type { Clock } from '../time/clock.ts';

/**
 * Paces bulk sends under Telegram's limits: about 30 messages a second overall (we aim a little
 * below) and one a second to any one chat. After a 429 the whole sender holds for the
 * retry_after Telegram named — flood control during a bulk send is about the bot, not one chat.
 * Time comes from the injected clock, so tests move a FakeClock instead of sleeping.
 */
export interface PacerLimits {
	perSecond: number;
	perChatMs: number;
}

export const BROADCAST_LIMITS: PacerLimits = { perSecond: 25, perChatMs: 1000 };

/** Chats not written to for this long are forgotten (their one-a-second spacing has passed). */
const FORGET_CHATS_AFTER = 1000;

export class SendPacer {
	readonly #lastPerChat = new Map<string, number>();
	#nextAt = 0;
	#holdUntil = 0;

	constructor(
		private readonly clock: Clock,
		private readonly limits: PacerLimits = BROADCAST_LIMITS
	) {}

	/** How long until any send may go (a 429's hold); 0 when free. */
	holdMs(): number {
		return Math.max(0, this.#holdUntil - this.clock.now().getTime());
	}

	/** How long a send to `chatId` must wait from now; 0 = it may go. */
	waitMs(chatId: bigint): number {
		const now = this.clock.now().getTime();
		const chatFree = (this.#lastPerChat.get(String(chatId)) ?? -Infinity) + this.limits.perChatMs;
		return Math.max(0, Math.max(this.#nextAt, this.#holdUntil, chatFree) - now);
	}

	/** Books a send to `chatId` now (call right before the request). */
	book(chatId: bigint): void {
		const now = this.clock.now().getTime();
		this.#nextAt = Math.max(this.#nextAt, now) + 1000 / this.limits.perSecond;
		this.#lastPerChat.set(String(chatId), now);
		if (this.#lastPerChat.size > FORGET_CHATS_AFTER) this.#forgetQuietChats(now);
	}

	holdAll(untilMs: number): void {
		this.#holdUntil = Math.max(this.#holdUntil, untilMs);
	}

	#forgetQuietChats(now: number): void {
		for (const [chat, at] of this.#lastPerChat) if (at + this.limits.perChatMs <= now) this.#lastPerChat.delete(chat);
	}
}
