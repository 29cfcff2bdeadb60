import { afterEach, describe, expect, it } from 'vitest';
import { EMULATOR_BOT_TOKEN, parseConfig } from '../../src/lib/server/config/config.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import { createBot } from '../../src/worker/bot/index.ts';
import { BotRunner } from '../../src/worker/bot/runner.ts';
import { UPDATES_LEASE_TTL_MS, UpdatesLeaseKeeper } from '../../src/worker/bot/updates-lease.ts';
import { createTelegramEmulator, type TelegramEmulator } from '../../tools/telegram-emulator/server.ts';
import { useTestDb } from '../helpers/test-db.ts';
import { botDepsFor } from '../helpers/bot-deps.ts';
import { botRunnerDeps } from '../helpers/bot-runner.ts';

describe('the Telegram updates move between workers with the lease', () => {
	const testDb = useTestDb('fleet-handover-');
	const cleanups: (() => Promise<void>)[] = [];
	afterEach(async () => {
		for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
	});

	/** The bot's reply to a /forget sent now: whoever polls has to take the update for it to come. */
	async function answered(emulator: TelegramEmulator, userId: number): Promise<void> {
		const sent = await emulator.control.sendUserMessage({ user_id: userId, text: '/forget' });
		await emulator.control.waitForMessage(userId, (m) => m.from_bot && m.message_id > sent.message.message_id, {
			timeoutMs: 15_000
		});
	}

	it('the holder answers; when it loses the lease its polling stops and the worker that took it answers; a worker polls again when it gets the lease back', async () => {
		const emulator = await createTelegramEmulator({ botToken: EMULATOR_BOT_TOKEN });
		cleanups.push(() => emulator.close());
		const { db, dbPath, dir } = await testDb();
		const clock = new FakeClock('2027-01-05T09:00:00.000Z');
		const config = parseConfig({ DB_PATH: dbPath, DATA_DIR: dir, TELEGRAM_API_ROOT: emulator.url });
		const workers = ['worker-a', 'worker-b'].map((holder) => {
			const deps = botDepsFor(db, clock, config);
			const runner = new BotRunner(
				createBot({ token: EMULATOR_BOT_TOKEN, apiRoot: emulator.url }, deps),
				botRunnerDeps(db, clock),
				{ apiRoot: emulator.url }
			);
			cleanups.push(() => runner.stop());
			return {
				runner,
				keeper: new UpdatesLeaseKeeper({ db, clock, logger: silentLogger, poller: runner, holder, sole: false })
			};
		});
		const [a, b] = workers as [(typeof workers)[0], (typeof workers)[0]];
		const user = await emulator.control.createUser({ first_name: 'Aziz', language_code: 'en' });

		await a.keeper.tick();
		await b.keeper.tick();
		await answered(emulator, user.id);
		expect([a.runner.polling, b.runner.polling]).toEqual([true, false]);

		// a stops renewing; after the lease time b takes it, and a's next tick stops a's polling.
		clock.advance(UPDATES_LEASE_TTL_MS);
		await b.keeper.tick();
		await a.keeper.tick();
		expect(a.runner.polling).toBe(false);
		await answered(emulator, user.id);
		expect(b.runner.polling).toBe(true);

		// b stops (gives the lease up): a takes it at its next tick and its runner polls once more.
		await b.keeper.stop();
		await a.keeper.tick();
		await answered(emulator, user.id);
		expect([a.runner.polling, b.runner.polling]).toEqual([true, false]);
	});
});
