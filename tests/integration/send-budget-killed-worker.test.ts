import { afterEach, describe, expect, it } from 'vitest';
import { EMULATOR_BOT_TOKEN } from '../../src/lib/server/config/config.ts';
import { EMULATOR_SALES_GROUP_ID } from '../../src/lib/server/leads/leads-config.ts';
import { BOT_LIMITS } from '../../src/lib/server/telegram/bot-budget.ts';
import { chatKey } from '../../src/lib/server/telegram/send-budget-rules.ts';
import { createTelegramEmulator } from '../../tools/telegram-emulator/server.ts';
import { seedLeads } from '../helpers/send-budget-load.ts';
import { useTestDb } from '../helpers/test-db.ts';
import { eventually } from './guest-harness.ts';
import { WorkerFleet } from './postgres/fleet-workers.ts';

/**
 * The real worker process SIGKILLed while it holds a place in the send budget — between taking
 * the place for a lead's card to the sales group and the Bot API's answer (STALL_AFTER_PLACE_MS
 * keeps it there) — and started again in the same data folder, as systemd's restart does. Before,
 * the killed worker's place held the group for answerTimeoutMs (35 s): every card waited it out.
 * Now the new launch, which took over the dead one's stale instance lock, releases that launch's
 * places at start (dead-holds.ts), and the next card reaches the group well before the old hold
 * would have ended. Judged from the database's hold and the emulator's arrival times, on SQLite and
 * (TEST_DB_ENGINE=postgresql) on PostgreSQL.
 */
describe('a worker killed while holding a send-budget place', () => {
	const openDb = useTestDb('killed-holder-');
	const cleanUp: (() => Promise<unknown>)[] = [];
	afterEach(async () => {
		for (const step of cleanUp.splice(0).reverse()) await step();
	});

	it('frees the chat for the restarted worker at its start, not after 35 s', { timeout: 180_000 }, async () => {
		const { db, dbEnv, dir } = await openDb();
		const emulator = await createTelegramEmulator({ botToken: EMULATOR_BOT_TOKEN });
		cleanUp.push(() => emulator.close());
		const fleet = new WorkerFleet(dir, {
			NODE_ENV: 'test',
			...dbEnv,
			...('DATABASE_URL' in dbEnv ? { DB_PATH: '' } : {}),
			TELEGRAM_API_ROOT: emulator.url,
			JOB_POLL_MS: '200'
		});
		cleanUp.push(() => fleet.stopAll());
		const group = chatKey(EMULATOR_SALES_GROUP_ID);
		// The first launch stalls after every place far longer than the hold: it dies holding it.
		const first = await fleet.start(0, { STALL_AFTER_PLACE_MS: '600000' });
		await seedLeads(db, 1);
		const hold = await eventually(
			() => db.telegramSendBudget.findUnique({ where: { key: group } }),
			(row) => row !== null && row.recent.startsWith(`${first.workerId}#`),
			60_000
		);
		const heldUntil = Number(hold!.nextAt);
		expect(heldUntil - Date.now()).toBeGreaterThan(BOT_LIMITS.answerTimeoutMs / 2);

		const second = await fleet.killAndRestart(0);
		await seedLeads(db, 1, 1);
		const cards = await eventually(
			async () => emulator.core.counters.snapshot().calls.filter(isCardTo(EMULATOR_SALES_GROUP_ID)),
			(calls) => calls.length > 0,
			90_000
		);
		// The killed launch never called: the first card is the new launch's, sent inside the old hold.
		expect(cards[0]!.at, JSON.stringify({ heldUntil, cards })).toBeLessThan(heldUntil);
		const released = fleet
			.logLines()
			.find((line) => line.launch === second && line.msg === 'released send-budget places of dead workers');
		expect(released?.fields).toMatchObject({ released: 1, launches: [first.workerId] });
	});
});

function isCardTo(chatId: bigint) {
	return (call: { method: string; chat_id?: number }) =>
		call.method === 'sendMessage' && call.chat_id !== undefined && BigInt(call.chat_id) === chatId;
}
