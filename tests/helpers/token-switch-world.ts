/**
 * The worker's bot side as main.ts builds it, for the bot-token switch tests: bot A running, a
 * token switch that can take bot B, the owner's Settings save and one runtime-settings pass.
 */
import { ChatCooldown } from '../../src/lib/server/telegram/flood-control.ts';
import { parseConfig } from '../../src/lib/server/config/config.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { readSecretsInForce, replaceSecret } from '../../src/lib/server/settings/console-secrets.ts';
import { keepRetiredBotToken } from '../../src/lib/server/settings/retired-bots.ts';
import { alertAdmins } from '../../src/lib/server/telegram/admin-alerts.ts';
import { BotTokenInForce } from '../../src/lib/server/telegram/bot-token.ts';
import { createOutboxApi } from '../../src/lib/server/telegram/outbox-api.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import { BotTokenSwitch } from '../../src/worker/bot/bot-token-switch.ts';
import { createBot } from '../../src/worker/bot/index.ts';
import { BotRunner } from '../../src/worker/bot/runner.ts';
import { UpdatesLeaseKeeper } from '../../src/worker/bot/updates-lease.ts';
import type { TelegramEmulator } from '../../tools/telegram-emulator/server.ts';
import { startBuiltWorker } from './node-process.ts';
import { useTestDb } from './test-db.ts';
import { botDepsFor } from './bot-deps.ts';
import { botRunnerDeps } from './bot-runner.ts';

export const TOKEN_A = '1000000001:bot-a-secret-0123456789abcdef';
export const TOKEN_B = '2000000002:bot-b-secret-0123456789abcdef';
/** Bot A's id with another secret: what a revoked or mistyped token looks like to Telegram (401). */
export const WRONG_TOKEN = '1000000001:not-the-right-secret-0123456789';
export const OWNER = { name: 'owner', ip: null };
export const ADMIN_ID = 777001;

/** The worker's bot side as main.ts builds it: token in force, bot, runner, updates lease, token switch. */
export async function startWorker(testDb: ReturnType<typeof useTestDb>, emulator: TelegramEmulator) {
	const { db, dbPath, dir } = await testDb();
	const clock = new FakeClock('2027-03-01T09:00:00.000Z');
	const env = parseConfig({
		DB_PATH: dbPath,
		DATA_DIR: dir,
		TELEGRAM_BOT_TOKEN: TOKEN_A,
		TELEGRAM_API_ROOT: emulator.url,
		SETTINGS_SECRET_KEY: 'ab'.repeat(32),
		ADMIN_TELEGRAM_IDS: String(ADMIN_ID)
	});
	const tokenInForce = new BotTokenInForce(TOKEN_A);
	const config = { ...env, telegram: { ...env.telegram, tokenInForce } };
	const deps = botDepsFor(db, clock, config);
	const runner = new BotRunner(createBot(config.telegram, deps), botRunnerDeps(db, clock), config.telegram);
	const keeper = new UpdatesLeaseKeeper({ db, clock, logger: silentLogger, poller: runner, holder: 'w1', sole: true });
	// The admins' alerts go through an outbox client built once, before any switch: it must follow the token.
	const alertApi = createOutboxApi(config.telegram);
	let packNameBot = 'unknown';
	const secretKey = Buffer.from('ab'.repeat(32), 'hex');
	const newSwitch = () =>
		new BotTokenSwitch({
			db,
			clock,
			logger: silentLogger,
			apiRoot: config.telegram.apiRoot,
			tokenInForce,
			runner,
			buildBot: (token) => createBot({ ...config.telegram, token }, deps),
			switched: (me) => (packNameBot = me.username),
			alertAdmins: (text) =>
				alertAdmins(
					{ db, clock, api: alertApi, logger: silentLogger, pacing: deps.sendPacing, cooldown: new ChatCooldown() },
					[BigInt(ADMIN_ID)],
					text
				),
			retireBot: (retired) => keepRetiredBotToken(db, clock, secretKey, retired)
		});
	const tokenSwitch = newSwitch();
	const world = {
		db,
		clock,
		deps,
		runner,
		keeper,
		alertApi,
		newSwitch,
		packNameBot: () => packNameBot,
		/** The owner saves a token on the Settings page (the console's own use case). */
		saveToken: (token: string) => replaceSecret({ db, clock, config, secretKey }, OWNER, 'telegramBotToken', token),
		/** One runtime-settings pass as the worker runs it every 5 s: the token in force goes to the switch. */
		settingsPass: async (via = tokenSwitch) =>
			via.apply((await readSecretsInForce(db, secretKey, config)).telegramBotToken)
	};
	return world;
}

/** The settings key of the real worker processes below (hex, 32 bytes). */
export const PROCESS_SECRET_KEY = 'cd'.repeat(32);

/** The real worker process (src/worker/main.ts) on the emulator, started with TELEGRAM_BOT_TOKEN = bot A's. */
export function startWorkerProcess(db: { dbEnv: NodeJS.ProcessEnv; dir: string }, apiRoot: string) {
	return startBuiltWorker({
		env: {
			NODE_ENV: 'test',
			...db.dbEnv,
			DATA_DIR: db.dir,
			TELEGRAM_BOT_TOKEN: TOKEN_A,
			TELEGRAM_API_ROOT: apiRoot,
			SETTINGS_SECRET_KEY: PROCESS_SECRET_KEY,
			LOG_LEVEL: 'info'
		}
	});
}
