import type { Db } from '../db/client.ts';
import { pseudonymForGuest } from '../lifecycle/pseudonym.ts';
import type { Logger } from '../log/logger.ts';
import { deleteHistoryLeftAfterErasure, recordBotMessage, type BotMessageEntry } from './message-log.ts';

/** Writes waiting beyond this are dropped: a locked database must not grow the worker's memory. */
const MAX_PENDING_WRITES = 1000;

export interface HistoryWriterDeps {
	db: Db;
	logger: Logger;
	/** From loadPseudonymKey(DATA_DIR): how the erasure ledger names a guest. */
	pseudonymKey: Buffer;
}

/**
 * History is a record, not part of the conversation: the bot hands each message over and goes on
 * at once. Writes run one after another in the order they were handed over (so a reply is never
 * stored before the message it answers), and a failed write is logged and forgotten — it can
 * never break, delay or fail a reply.
 */
export class MessageHistoryWriter {
	#tail: Promise<void> = Promise.resolve();
	#pending = 0;
	readonly #deps: HistoryWriterDeps;

	constructor(deps: HistoryWriterDeps) {
		this.#deps = deps;
	}

	record(entry: BotMessageEntry): void {
		this.#enqueue('record', () => recordBotMessage(this.#deps.db, entry));
	}

	/**
	 * A guest erased while their update was handled (/forget) must not keep the messages written
	 * around the erasure — the confirmation the bot sends after it included. The erasure ledger
	 * says whether that happened; the daily counters stay, they name nobody.
	 */
	dropIfErasedSince(telegramUserId: bigint, sinceIso: string): void {
		this.#enqueue('erasure check', async () => {
			const subject = pseudonymForGuest(this.#deps.pseudonymKey, telegramUserId);
			const erased = await this.#deps.db.erasure.findFirst({
				where: { kind: 'guest', subject, erasedAt: { gte: sinceIso } },
				select: { erasedAt: true }
			});
			if (erased) await deleteHistoryLeftAfterErasure(this.#deps.db, telegramUserId, erased.erasedAt);
		});
	}

	/** Resolves once everything handed over so far is written or given up (tests, shutdown). */
	idle(): Promise<void> {
		return this.#tail;
	}

	#enqueue(what: string, work: () => Promise<unknown>): void {
		if (this.#pending >= MAX_PENDING_WRITES) {
			this.#deps.logger.warn({ pending: this.#pending }, 'message history is behind; a message was not recorded');
			return;
		}
		this.#pending++;
		this.#tail = this.#tail
			.then(work)
			.catch((error: unknown) =>
				this.#deps.logger.warn({ err: error, what }, 'message history write failed; the bot goes on')
			)
			.then(() => {
				this.#pending--;
			});
	}
}
