import type { Api } from 'grammy';
import { afterEach } from 'vitest';
import { EMULATOR_BOT_TOKEN } from '../../src/lib/server/config/config.ts';
import type { Db } from '../../src/lib/server/db/client.ts';
import { BotBudget } from '../../src/lib/server/telegram/bot-budget.ts';
import type { SendPacing } from '../../src/lib/server/telegram/send-budget-api.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import { createTelegramEmulator, type TelegramEmulator } from '../../tools/telegram-emulator/server.ts';
import { testsRunOnPostgres } from './pg-test-db.ts';
import { useTestDb, type TestDb } from './test-db.ts';

/**
 * The world the send-budget tests with the Telegram emulator share (admin-alerts-send-budget,
 * telegram-send-budget-bot): a migrated test database, one FakeClock that the budget's waits move,
 * the emulator, and a second worker's database client — its own on PostgreSQL
 * (TEST_DB_ENGINE=postgresql, so the two really run at once), the same one on SQLite, where one
 * worker is the supported set-up. Everything is closed after each test.
 */
export interface SendBudgetWorld {
	made: TestDb & { dir: string };
	db: Db;
	/** The other worker's database client. */
	otherDb: Db;
	clock: FakeClock;
	emulator: TelegramEmulator;
	/** Every wait the budget asked for, in order (each moved the clock). */
	waits: number[];
	/** A worker's pacing on `db`: its own BotBudget, waits move the clock. */
	pacingOn(db: Db): SendPacing;
	/**
	 * Records each `method` call on `api` once answered: its chat and the FakeClock's time, which is
	 * the moment the budget let it go (waits move the clock, nothing else does). Into `sends` when
	 * given (several clients in one list).
	 */
	recordSends(api: Api, method: string, sends?: Send[]): Send[];
	/** Closed after the test, last added first. */
	onClose(close: () => Promise<unknown>): void;
}

export interface Send {
	chat: number;
	at: number;
}

export function useSendBudgetWorld(prefix: string): () => Promise<SendBudgetWorld> {
	const openDb = useTestDb(prefix);
	const closers: (() => Promise<unknown>)[] = [];
	afterEach(async () => {
		for (const close of closers.splice(0).reverse()) await close();
	});
	return async () => {
		const made = await openDb();
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const emulator = await createTelegramEmulator({ botToken: EMULATOR_BOT_TOKEN });
		closers.push(() => emulator.close());
		const otherDb = testsRunOnPostgres() ? made.reopen() : made.db;
		if (otherDb !== made.db) closers.push(() => otherDb.$disconnect());
		const waits: number[] = [];
		const sleep = async (ms: number) => {
			waits.push(ms);
			clock.advance(ms);
		};
		return {
			made,
			db: made.db,
			otherDb,
			clock,
			emulator,
			waits,
			pacingOn: (db) => ({ budget: new BotBudget(db, clock, 'test'), sleep }),
			recordSends(api, method, sends = []) {
				api.config.use(async (prev, called, payload, signal) => {
					const response = await prev(called, payload, signal);
					const chat = Number((payload as { chat_id?: number }).chat_id);
					if (called === method) sends.push({ chat, at: clock.now().getTime() });
					return response;
				});
				return sends;
			},
			onClose: (close) => closers.push(close)
		};
	};
}
