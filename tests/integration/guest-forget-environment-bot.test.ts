import { Api } from 'grammy';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/lib/server/config/config.ts';
import { createLogger } from '../../src/lib/server/log/logger.ts';
import { replaceSecret } from '../../src/lib/server/settings/console-secrets.ts';
import { keepRetiredBotToken, retiredBotToken } from '../../src/lib/server/settings/retired-bots.ts';
import { FakeClock, MINUTE, systemClock } from '../../src/lib/server/time/clock.ts';
import { botTokenToStartWith } from '../../src/worker/bot/bot-token-switch.ts';
import { keepEnvironmentBot } from '../../src/worker/bot/environment-bot.ts';
import { createTelegramEmulator } from '../../tools/telegram-emulator/server.ts';
import { PROCESS_WAIT_MS, waitForOutput } from '../helpers/node-process.ts';
import { createStickerSet, forgetThroughBot } from '../helpers/old-bot-sets.ts';
import { useTestDb } from '../helpers/test-db.ts';
import {
	PROCESS_SECRET_KEY,
	startWorkerProcess,
	TOKEN_A,
	TOKEN_B,
	WRONG_TOKEN
} from '../helpers/token-switch-world.ts';
import { insertGuest } from './lifecycle-fixtures.ts';

/**
 * A worker that starts with the console's token of bot B while TELEGRAM_BOT_TOKEN is bot A's (the
 * token was saved while the worker was down) never switched while running, yet A's sticker sets
 * can only be deleted with A's token: the start keeps it (worker/bot/environment-bot.ts).
 */
const BOT_A = 'kiosk_a_bot';
const BOT_B = 'emulated_2000000002_bot';
const AT = '2027-03-01T09:00:00.000Z';
const secretKey = Buffer.from(PROCESS_SECRET_KEY, 'hex');

describe("a worker started on the console's token of another bot than TELEGRAM_BOT_TOKEN's", () => {
	const testDb = useTestDb('forget-env-bot-');
	const cleanups: (() => Promise<unknown>)[] = [];
	afterEach(async () => {
		for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
	});

	async function emulatorWithBotA() {
		const emulator = await createTelegramEmulator({ botToken: TOKEN_A, botUsername: BOT_A });
		cleanups.push(() => emulator.close());
		return emulator;
	}

	/** The start's deps as main.ts passes them, with the log lines kept for the test to read. */
	async function startDeps(emulator: { url: string }) {
		const { db } = await testDb();
		const clock = new FakeClock(AT);
		const lines: string[] = [];
		const logger = createLogger('worker', 'info', { stdout: { write: (line: string) => lines.push(line) } });
		const retireBot = (retired: { username: string; token: string }) =>
			keepRetiredBotToken(db, clock, secretKey, retired);
		return { db, clock, logger, apiRoot: emulator.url, retireBot, lines };
	}

	it('the real worker keeps bot A’s token at start, and /forget through bot B deletes the set bot A made', async () => {
		const emulator = await emulatorWithBotA();
		const { db, dbEnv, dbPath, dir } = await testDb();
		const user = await emulator.control.createUser({ first_name: 'Malika', language_code: 'en' });
		const packName = `p${user.id}_1_by_${BOT_A}`;
		await createStickerSet(emulator, TOKEN_A, user.id, packName);
		await insertGuest(db, { id: BigInt(user.id), at: AT, packName });
		// Bot B's token saved on the console while no worker ran.
		const config = parseConfig({ DB_PATH: dbPath, DATA_DIR: dir, TELEGRAM_BOT_TOKEN: TOKEN_A });
		await replaceSecret(
			{ db, clock: systemClock, config, secretKey },
			{ name: 'owner', ip: null },
			'telegramBotToken',
			TOKEN_B
		);

		const worker = startWorkerProcess({ dbEnv, dir }, emulator.url);
		cleanups.push(async () => {
			worker.kill('SIGTERM');
			await worker.finished;
		});
		const output = await waitForOutput(worker, (text) => text.includes('bot polling started'));
		expect(output).toContain(`"username":"${BOT_B}"`);
		expect(await retiredBotToken(db, secretKey, BOT_A)).toBe(TOKEN_A);
		expect(output).toContain("the environment's bot is not the one running");
		expect(output).not.toContain(TOKEN_A.split(':')[1]!);

		const text = await forgetThroughBot(emulator, user.id, BOT_B, /Done/, PROCESS_WAIT_MS);
		expect(text).toContain('Sticker sets deleted from Telegram: 1.');
		expect(await emulator.control.getStickerSet(packName)).toBeNull();
		expect(await db.user.count()).toBe(0);
		expect(await db.adminAlert.count()).toBe(0);
		expect(worker.exitCode).toBeNull();
	}, 120_000);

	it('each later start keeps the same token without writing it again', async () => {
		const deps = await startDeps(await emulatorWithBotA());
		expect(await botTokenToStartWith(deps, TOKEN_A, TOKEN_B)).toBe(TOKEN_B);
		const key = { where: { key: `retired-bot.${BOT_A}` } };
		const first = await deps.db.setting.findUniqueOrThrow(key);
		deps.clock.advance(60 * MINUTE);
		expect(await botTokenToStartWith(deps, TOKEN_A, TOKEN_B)).toBe(TOKEN_B);
		expect(await deps.db.setting.findUniqueOrThrow(key)).toEqual(first);
	});

	it('TELEGRAM_BOT_TOKEN refused (401): nothing kept, a warning; a token kept by an earlier switch stays', async () => {
		const deps = await startDeps(await emulatorWithBotA());
		expect(await botTokenToStartWith(deps, WRONG_TOKEN, TOKEN_B)).toBe(TOKEN_B);
		expect(await deps.db.setting.count({ where: { key: { startsWith: 'retired-bot.' } } })).toBe(0);
		expect(deps.lines.join('')).toContain('TELEGRAM_BOT_TOKEN is refused by Telegram');

		await keepRetiredBotToken(deps.db, deps.clock, secretKey, { username: BOT_A, token: TOKEN_A });
		expect(await botTokenToStartWith(deps, WRONG_TOKEN, TOKEN_B)).toBe(TOKEN_B);
		expect(await retiredBotToken(deps.db, secretKey, BOT_A)).toBe(TOKEN_A);
	});

	it('Telegram failing for the environment token, or the write failing: the start goes on, and the next start keeps it', async () => {
		const emulator = await emulatorWithBotA();
		const deps = await startDeps(emulator);
		const botB = await new Api(TOKEN_B, { apiRoot: emulator.url }).getMe();
		await emulator.control.injectFault({ method: 'getMe', kind: '5xx', status: 502 });
		await keepEnvironmentBot(deps, TOKEN_A, botB);
		expect(deps.lines.join('')).toContain('asked again at the next start');
		expect(await retiredBotToken(deps.db, secretKey, BOT_A)).toBeNull();

		const failingWrite = { ...deps, retireBot: () => Promise.reject(new Error('database is locked')) };
		await keepEnvironmentBot(failingWrite, TOKEN_A, botB);
		expect(deps.lines.join('')).toContain("could not keep the environment's bot token");
		expect(await retiredBotToken(deps.db, secretKey, BOT_A)).toBeNull();

		expect(await botTokenToStartWith(deps, TOKEN_A, TOKEN_B)).toBe(TOKEN_B);
		expect(await retiredBotToken(deps.db, secretKey, BOT_A)).toBe(TOKEN_A);
	});

	it('the same bot under a new token (revoked at @BotFather): nothing kept, no warning', async () => {
		const emulator = await emulatorWithBotA();
		const deps = await startDeps(emulator);
		const { token: renewed } = await emulator.control.revokeBotToken(BOT_A);
		expect(await botTokenToStartWith(deps, TOKEN_A, renewed)).toBe(renewed);
		expect(await deps.db.setting.count({ where: { key: { startsWith: 'retired-bot.' } } })).toBe(0);
		expect(deps.lines.join('')).not.toMatch(/"level":(40|50)/);
	});
});
