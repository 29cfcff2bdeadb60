import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/lib/server/config/config.ts';
import { readBotUsername } from '../../src/lib/server/guests/bot-identity.ts';
import { replaceSecret } from '../../src/lib/server/settings/console-secrets.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { createTelegramEmulator } from '../../tools/telegram-emulator/server.ts';
import { PROCESS_WAIT_MS, waitForOutput } from '../helpers/node-process.ts';
import { useTestDb } from '../helpers/test-db.ts';
import { PROCESS_SECRET_KEY, startWorkerProcess, TOKEN_A, TOKEN_B } from '../helpers/token-switch-world.ts';

/**
 * The real worker process (src/worker/main.ts) on the emulator: a token saved as the console saves
 * it reaches the running worker through its runtime-settings task, and guests of the new bot get
 * answers without a restart. (bot-token-switch.test.ts drives the same parts in-process, on a FakeClock.)
 */
describe('the running worker takes a bot token saved on the console', () => {
	const testDb = useTestDb('bot-token-worker-');
	const cleanups: (() => Promise<unknown>)[] = [];
	afterEach(async () => {
		for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
	});

	it('bot A answers, the owner saves bot B’s token, bot B answers and its @username is published', async () => {
		const emulator = await createTelegramEmulator({ botToken: TOKEN_A, botUsername: 'kiosk_a_bot' });
		cleanups.push(() => emulator.close());
		const { db, dbEnv, dbPath, dir } = await testDb();
		const worker = startWorkerProcess({ dbEnv, dir }, emulator.url);
		cleanups.push(async () => {
			worker.kill('SIGTERM');
			await worker.finished;
		});
		await waitForOutput(worker, (text) => text.includes('bot polling started'));

		const ask = async (name: string, bot?: string) => {
			const user = await emulator.control.createUser({ first_name: name, language_code: 'en' });
			await emulator.control.sendUserMessage({ user_id: user.id, text: '/start not-a-kiosk-token', bot });
			return emulator.control.waitForMessage(user.id, (m) => m.from_bot, { timeoutMs: PROCESS_WAIT_MS, bot });
		};
		expect((await ask('Guest of A')).text).toMatch(/not valid/);

		const config = parseConfig({ DB_PATH: dbPath, DATA_DIR: dir, TELEGRAM_BOT_TOKEN: TOKEN_A });
		await replaceSecret(
			{ db, clock: systemClock, config, secretKey: Buffer.from(PROCESS_SECRET_KEY, 'hex') },
			{ name: 'owner', ip: null },
			'telegramBotToken',
			TOKEN_B
		);
		await waitForOutput(worker, (text) => text.includes('bot token changed'));
		expect((await ask('Guest of B', 'emulated_2000000002_bot')).text).toMatch(/not valid/);
		expect(await readBotUsername(db)).toBe('emulated_2000000002_bot');
		expect(worker.exitCode).toBeNull();
	});
});
