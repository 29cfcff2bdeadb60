import { SECOND } from '../time/clock.ts';
import type { BotBudget } from './bot-budget.ts';

/**
 * How often the guests' status messages may be edited: at most once every `perChatMs` per guest
 * (a message that changes faster only flickers), and at most `perSecond` edits overall, so the
 * edits never take the whole guest lane of the bot's budget (bot-budget.ts) from the notices.
 * Every edit is also a message in that budget. Time comes from the caller (a clock).
 */
export const STATUS_EDIT_EVERY_MS = 5 * SECOND;
export const STATUS_EDITS_PER_SECOND = 12;

export class EditPacer {
	readonly #lastByChat = new Map<string, number>();
	#recent: number[] = [];

	constructor(
		private readonly budget: BotBudget,
		private readonly perChatMs = STATUS_EDIT_EVERY_MS,
		private readonly perSecond = STATUS_EDITS_PER_SECOND
	) {}

	/**
	 * May this chat's message be edited now? `touchedMs` is when the guest last saw it change (from
	 * the database, so a restart does not reset the pace). A yes is counted as an edit made.
	 */
	take(chatId: bigint, touchedMs: number, nowMs: number): boolean {
		const key = String(chatId);
		const last = Math.max(touchedMs, this.#lastByChat.get(key) ?? -Infinity);
		if (nowMs - last < this.perChatMs) return false;
		this.#recent = this.#recent.filter((at) => nowMs - at < SECOND);
		if (this.#recent.length >= this.perSecond) return false;
		if (!this.budget.tryTake(chatId)) return false;
		this.#recent.push(nowMs);
		this.#lastByChat.set(key, nowMs);
		return true;
	}

	/** A 429 on an edit: the bot-wide budget holds its broadcasts too. */
	noteFlood(retryAfterMs: number): void {
		this.budget.noteFlood(retryAfterMs);
	}

	/** Whether the edits' budget of this second is spent (the pass can stop early). */
	isSpent(nowMs: number): boolean {
		return this.budget.isSpent() || this.#recent.filter((at) => nowMs - at < SECOND).length >= this.perSecond;
	}
}
