import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';
import { lockKeys } from '../db/dialect/row-locks.ts';
import {
	BOT_LIMITS,
	budgetKeys,
	chatKey,
	holderOf,
	isHeld,
	placeToken,
	placeWait,
	settledRow,
	takePlace,
	type BotLimits,
	type BudgetRow,
	type Lane
} from './send-budget-rules.ts';

export { BOT_LIMITS, type BotLimits, type Lane } from './send-budget-rules.ts';

/**
 * The bot's one send budget: every message any worker sends — guest notices, status edits,
 * broadcasts, sales-group cards, pings and edits, and the bot's own replies — takes a place here
 * first. Telegram's limits are per bot (~30 a second overall, ~1 a second to a chat, 20 a minute to
 * a group), so the budget lives in the database (`telegram_send_budget`), not in a worker's memory:
 * N workers share one budget, and a 429's hold survives a restart. The rules are in
 * send-budget-rules.ts; a place is taken in one short transaction that locks its keys, so two
 * workers never take the same place. Time comes from the injected clock.
 *
 * Lanes: `guest` (a guest or the sales group is waiting) asks "may I send now?" and may fill the
 * whole second; `bulk` (broadcasts) keeps its own slower even pace, may not take the last
 * `guestReserve` places of any second and waits out a 429's hold — so guests never queue behind a
 * broadcast.
 *
 * A place holds its chat until its sender calls `settle` once the Bot API answered the call (or it
 * failed): the chat's next place is given no sooner than that answer + the chat's spacing, so the
 * spacing holds for arrivals at Telegram even when a worker stalls between its place and its call.
 * Every sender settles what it took, in a `finally`. Each place names its holder (the worker's
 * registry id): a place never settled because its worker died is released as soon as that worker
 * is known dead (`releaseHeld`, called by dead-holds.ts), and frees the chat after
 * `answerTimeoutMs` at the latest.
 */
export class BotBudget {
	#takes = 0;
	/** This worker's places not yet settled: the chat's key → the token its row is held by. */
	readonly #held = new Map<string, string>();

	constructor(
		private readonly db: Db,
		private readonly clock: Clock,
		/** Who takes the places: the worker's worker_processes id, so a dead worker's places can be released. */
		private readonly holder: string,
		private readonly limits: BotLimits = BOT_LIMITS,
		/** Runs after each place taken, before its sender calls (the fleet test's stalled worker, send-stall.ts). */
		private readonly afterPlace: () => Promise<void> = async () => undefined
	) {}

	/**
	 * Takes a place for a message to `chatId` now and says 0, or says how long to wait (nothing
	 * taken). A place taken must be settled (`settle`) once its call is answered.
	 */
	async take(chatId: bigint, lane: Lane): Promise<number> {
		const keys = budgetKeys(chatId, lane);
		const token = placeToken(this.holder, randomUUID());
		const wait = await this.db.$transaction(async (tx) => {
			// Rows that do not exist yet hold no lock, so the keys are locked (nothing on SQLite).
			await lockKeys(
				tx,
				keys.map((key) => `telegram_send_budget:${key}`)
			);
			const rows: BudgetRow[] = await tx.telegramSendBudget.findMany({ where: { key: { in: keys } } });
			const now = this.#now();
			const waitMs = placeWait(rows, chatId, lane, now, this.limits);
			if (waitMs > 0) return waitMs;
			for (const row of takePlace(rows, chatId, lane, now, this.limits, token)) {
				await tx.telegramSendBudget.upsert({
					where: { key: row.key },
					create: row,
					update: { nextAt: row.nextAt, recent: row.recent }
				});
			}
			return 0;
		});
		if (wait > 0) return wait;
		this.#held.set(chatKey(chatId), token);
		if (++this.#takes % PRUNE_EVERY === 0) await this.#prune();
		await this.afterPlace();
		return 0;
	}

	/**
	 * The call to `chatId` whose place this budget gave was answered (or failed) now: the chat's
	 * next place counts its spacing from this moment. One conditional statement: a hold that timed
	 * out and was taken again by another place is left alone.
	 */
	async settle(chatId: bigint): Promise<void> {
		const key = chatKey(chatId);
		const token = this.#held.get(key);
		if (token === undefined) return;
		this.#held.delete(key);
		const { nextAt, recent } = settledRow(key, this.#now(), this.limits);
		await this.db.telegramSendBudget.updateMany({ where: { key, recent: token }, data: { nextAt, recent } });
	}

	/** Sends through `call` once a place is taken (waiting for it), and settles it when `call` is answered. */
	async sendInPlace<T>(chatId: bigint, sleep: (ms: number) => Promise<void>, call: () => Promise<T>): Promise<T> {
		await this.waitForPlace(chatId, 'guest', sleep);
		try {
			return await call();
		} finally {
			await this.settle(chatId);
		}
	}

	/** The guest lane's question: true = a place is taken, send now; false = not now (next pass). */
	async tryTake(chatId: bigint): Promise<boolean> {
		return (await this.take(chatId, 'guest')) === 0;
	}

	/** Waits (by `sleep`, so a FakeClock moves) until a place is taken. */
	async waitForPlace(chatId: bigint, lane: Lane, sleep: (ms: number) => Promise<void>): Promise<void> {
		for (let wait = await this.take(chatId, lane); wait > 0; wait = await this.take(chatId, lane)) await sleep(wait);
	}

	/** How long broadcasts still hold after a 429; 0 when free. Every worker reads the same hold. */
	async holdMs(): Promise<number> {
		const row = await this.db.telegramSendBudget.findUnique({ where: { key: 'hold' } });
		return row ? Math.max(0, Number(row.nextAt) - this.#now()) : 0;
	}

	/** Holds the broadcasts until `untilMs` (never shortens a longer hold). */
	async holdBulk(untilMs: number): Promise<void> {
		await this.db.$transaction(async (tx) => {
			await lockKeys(tx, ['telegram_send_budget:hold']);
			const row = await tx.telegramSendBudget.findUnique({ where: { key: 'hold' } });
			if (row && Number(row.nextAt) >= untilMs) return;
			const nextAt = BigInt(Math.ceil(untilMs));
			await tx.telegramSendBudget.upsert({
				where: { key: 'hold' },
				create: { key: 'hold', nextAt },
				update: { nextAt }
			});
		});
	}

	/** A 429 anywhere (its retry_after in ms, 0 = none): the bot slows down as a whole. */
	async noteFlood(retryAfterMs: number): Promise<void> {
		if (retryAfterMs > 0) await this.holdBulk(this.#now() + retryAfterMs);
	}

	/** Whether the guest lane has no place left right now (a pass can stop early). */
	async isSpent(): Promise<boolean> {
		const rows = await this.db.telegramSendBudget.findMany({ where: { key: 'bot' } });
		// A read without a lock: the answer only lets a pass stop early, the take decides.
		return placeWait(rows, null, 'guest', this.#now(), this.limits) > 0;
	}

	/** The chats held now by places not yet answered, with the process each names. */
	async heldPlaces(): Promise<HeldPlace[]> {
		const rows = await this.db.telegramSendBudget.findMany({
			where: { nextAt: { gt: BigInt(this.#now()) }, recent: { not: '' } }
		});
		return rows.filter(isHeld).map((row) => ({ key: row.key, token: row.recent, holder: holderOf(row.recent) }));
	}

	/**
	 * Releases held places whose process is gone, as if their calls were answered now: the chat's
	 * next place comes after the spacing from this moment (the dead worker's call, if it was made,
	 * arrived before it died). Conditional on the token, so a place settled or taken again meanwhile
	 * is left alone. Says how many were released.
	 */
	async releaseHeld(places: readonly HeldPlace[]): Promise<number> {
		let released = 0;
		for (const place of places) {
			const { nextAt, recent } = settledRow(place.key, this.#now(), this.limits);
			const { count } = await this.db.telegramSendBudget.updateMany({
				where: { key: place.key, recent: place.token },
				data: { nextAt, recent }
			});
			released += count;
		}
		return released;
	}

	#now(): number {
		return this.clock.now().getTime();
	}

	/** Rows whose moment has long passed mean the same as no row. */
	async #prune(): Promise<void> {
		const before = BigInt(this.#now() - PRUNE_AFTER_MS);
		await this.db.telegramSendBudget.deleteMany({
			where: { key: { notIn: ['hold', 'bot', 'bulk'] }, nextAt: { lt: before } }
		});
	}
}

/** A chat held by a place not yet answered, and the process that took it. */
export interface HeldPlace {
	key: string;
	token: string;
	holder: string;
}

const PRUNE_EVERY = 500;
const PRUNE_AFTER_MS = 60_000;
