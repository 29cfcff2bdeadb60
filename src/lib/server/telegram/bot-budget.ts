import type { Clock } from '../time/clock.ts';

/**
 * One budget for every message the worker sends on its own — guest notices, status edits and
 * broadcasts. Telegram lets a bot send about 30 messages a second overall and about one a second
 * to any one chat; beyond that it answers 429. Each sender pacing itself by its own constant added
 * up to more than 30 a second while a broadcast ran during an event, so they share this budget.
 *
 * Two lanes: `guest` (notices and status edits — a guest is waiting for them) may use the whole
 * budget and is asked "may I send now?", never made to wait; `bulk` (broadcasts) is spaced evenly,
 * capped lower, and may not fill the last `guestReserve` places of any second, so guests are never
 * queued behind a broadcast. A 429's retry_after holds the bulk lane (the bot as a whole was too
 * fast; the guest lane's own sender cools the one chat down and retries that row later).
 * Time comes from the injected clock, so tests move a FakeClock instead of sleeping.
 */
export interface BotLimits {
	/** Messages a second for the whole bot, a little under Telegram's ~30. */
	perSecond: number;
	/** The bulk lane's own even pace. */
	bulkPerSecond: number;
	/** Places in every second that bulk may not take. */
	guestReserve: number;
	/** Spacing between two messages to one chat. */
	perChatMs: number;
}

export const BOT_LIMITS: BotLimits = { perSecond: 28, bulkPerSecond: 22, guestReserve: 6, perChatMs: 1000 };

export type Lane = 'guest' | 'bulk';

const WINDOW_MS = 1000;
/** Chats not written to for this long are forgotten (their one-a-second spacing has passed). */
const FORGET_CHATS_AFTER = 1000;

export class BotBudget {
	readonly #lastPerChat = new Map<string, number>();
	/** When each message of the last second went, oldest first. */
	#sent: number[] = [];
	#bulkNextAt = 0;
	#bulkHoldUntil = 0;

	constructor(
		private readonly clock: Clock,
		private readonly limits: BotLimits = BOT_LIMITS
	) {}

	/** How long until the bulk lane may send again after a 429; 0 when free. */
	holdMs(): number {
		return Math.max(0, this.#bulkHoldUntil - this.#now());
	}

	holdBulk(untilMs: number): void {
		this.#bulkHoldUntil = Math.max(this.#bulkHoldUntil, untilMs);
	}

	/** A guest-lane 429 (its retry_after in ms, 0 = none): the broadcasts hold too, so the bot slows down as a whole. */
	noteFlood(retryAfterMs: number): void {
		if (retryAfterMs > 0) this.holdBulk(this.#now() + retryAfterMs);
	}

	/** How long a bulk message to `chatId` must wait from now; 0 = it may go (then `book` it). */
	waitMs(chatId: bigint): number {
		const now = this.#now();
		const free = Math.max(this.#bulkNextAt, this.#bulkHoldUntil, this.#chatFreeAt(chatId), this.#windowFreeAt(now, 'bulk'));
		return Math.max(0, free - now);
	}

	/** Books a message to `chatId` now (call right before the request). */
	book(chatId: bigint, lane: Lane = 'bulk'): void {
		const now = this.#now();
		this.#sent.push(now);
		if (lane === 'bulk') this.#bulkNextAt = Math.max(this.#bulkNextAt, now) + WINDOW_MS / this.limits.bulkPerSecond;
		this.#lastPerChat.set(String(chatId), now);
		if (this.#lastPerChat.size > FORGET_CHATS_AFTER) this.#forgetQuietChats(now);
	}

	/** The guest lane: books and says yes when a message to `chatId` may go now; otherwise no (try on the next pass). */
	tryTake(chatId: bigint): boolean {
		const now = this.#now();
		if (this.#chatFreeAt(chatId) > now || this.#windowFreeAt(now, 'guest') > now) return false;
		this.book(chatId, 'guest');
		return true;
	}

	/** Whether the guest lane has nothing left in this second (a pass can stop early). */
	isSpent(): boolean {
		const now = this.#now();
		return this.#windowFreeAt(now, 'guest') > now;
	}

	#now(): number {
		return this.clock.now().getTime();
	}

	#chatFreeAt(chatId: bigint): number {
		return (this.#lastPerChat.get(String(chatId)) ?? -Infinity) + this.limits.perChatMs;
	}

	/** When the lane's share of the sliding second has room again (now or earlier = room now). */
	#windowFreeAt(now: number, lane: Lane): number {
		this.#sent = this.#sent.filter((at) => now - at < WINDOW_MS);
		const cap = lane === 'guest' ? this.limits.perSecond : this.limits.perSecond - this.limits.guestReserve;
		// The message that must leave the window before one more fits (none: there is room now).
		const blocking = this.#sent[this.#sent.length - cap];
		return blocking === undefined ? now : blocking + WINDOW_MS;
	}

	#forgetQuietChats(now: number): void {
		for (const [chat, at] of this.#lastPerChat) if (at + this.limits.perChatMs <= now) this.#lastPerChat.delete(chat);
	}
}
