import { SECOND } from '../time/clock.ts';
import type { BotBudget } from './bot-budget.ts';

/** The part of the bot's send budget the edits use (its guest lane). */
export type GuestPlaces = Pick<BotBudget, 'tryTake' | 'settle' | 'noteFlood' | 'isSpent'>;

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
		private readonly budget: GuestPlaces,
		private readonly perChatMs = STATUS_EDIT_EVERY_MS,
		private readonly perSecond = STATUS_EDITS_PER_SECOND
	) {}

	/**
	 * May this chat's message be edited now? `touchedMs` is when the guest last saw it change (from
	 * the database, so a restart does not reset the pace). A yes is counted as an edit made.
	 */
	async take(chatId: bigint, touchedMs: number, nowMs: number): Promise<boolean> {
		const key = String(chatId);
		const last = Math.max(touchedMs, this.#lastByChat.get(key) ?? -Infinity);
		if (nowMs - last < this.perChatMs) return false;
		this.#recent = this.#recent.filter((at) => nowMs - at < SECOND);
		if (this.#recent.length >= this.perSecond) return false;
		if (!(await this.budget.tryTake(chatId))) return false;
		this.#recent.push(nowMs);
		this.#lastByChat.set(key, nowMs);
		return true;
	}

	/** The edit `take` allowed was answered (or failed): the guest's chat is free again after its spacing. */
	async settle(chatId: bigint): Promise<void> {
		await this.budget.settle(chatId);
	}

	/** A 429 on an edit: the bot-wide budget holds its broadcasts too. */
	async noteFlood(retryAfterMs: number): Promise<void> {
		await this.budget.noteFlood(retryAfterMs);
	}

	/** Whether the edits' budget of this second is spent (the pass can stop early). */
	async isSpent(nowMs: number): Promise<boolean> {
		return this.#recent.filter((at) => nowMs - at < SECOND).length >= this.perSecond || (await this.budget.isSpent());
	}
}
