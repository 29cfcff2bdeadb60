import type { Api, Bot } from 'grammy';
import { afterEach } from 'vitest';
import { parseConfig, EMULATOR_BOT_TOKEN, type Config } from '../../src/lib/server/config/config.ts';
import type { Db } from '../../src/lib/server/db/client.ts';
import { rememberBotUsername } from '../../src/lib/server/guests/bot-identity.ts';
import { sessionTimeoutsFrom } from '../../src/lib/server/guests/session-clock.ts';
import { createKiosk, type Kiosk } from '../../src/lib/server/kiosk/kiosk-keys.ts';
import { startKioskSession, type KioskDeps } from '../../src/lib/server/kiosk/kiosk-session.ts';
import type { UploadDeps } from '../../src/lib/server/kiosk/photo-upload.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { sharedUploadChecker } from '../../src/lib/server/media/upload-checker/web-checker.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import { createOutboxApi } from '../../src/lib/server/telegram/outbox-api.ts';
import { createBot } from '../../src/worker/bot/index.ts';
import { BotRunner } from '../../src/worker/bot/runner.ts';
import type { BotContext } from '../../src/worker/bot/context.ts';
import { createTelegramEmulator, type TelegramEmulator } from '../../tools/telegram-emulator/server.ts';
import type { ChatMessageView } from '../../tools/telegram-emulator/views.ts';
import { PROJECT_ROOT } from '../helpers/node-process.ts';
import { createTestDb } from '../helpers/test-db.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { localFileStore } from '../helpers/file-store.ts';
import type { FileStore } from '../../src/lib/server/files/file-store.ts';
import { RuntimeSettings } from '../../src/lib/server/settings/runtime-settings.ts';
import { sendPacingWithoutWaits } from '../helpers/send-pacing.ts';
import { historyWriterFor } from '../helpers/bot-deps.ts';
import { botRunnerDeps } from '../helpers/bot-runner.ts';

/**
 * A real guest world for integration tests: a migrated SQLite file, the Telegram emulator as a real
 * HTTP server, and the production bot (createBot, every feature) long-polling it — with a FakeClock
 * wherever a rule reads the time.
 */
export interface GuestWorld {
	db: Db;
	dbPath: string;
	dir: string;
	/** The file store on `dir` the bot and the upload are given. */
	fileStore: FileStore;
	clock: FakeClock;
	config: Config;
	emulator: TelegramEmulator;
	bot: Bot<BotContext>;
	/** The worker's BotRunner polling `bot` (stop and start it to play a restart). */
	runner: BotRunner;
	/** The worker's guest notices client, whose sends the bot's message history records as well. */
	noticeApi: Api;
	kiosk: Kiosk;
	/** The kiosk's key, as the kiosk page's cookie carries it. */
	kioskKey: string;
	deps: KioskDeps;
	runtime: RuntimeSettings;
	close(): Promise<void>;
}

export async function startGuestWorld(dir: string, env: Record<string, string> = {}): Promise<GuestWorld> {
	const { db, dbPath } = await createTestDb(dir);
	const clock = new FakeClock('2026-03-01T10:00:00.000Z');
	const emulator = await createTelegramEmulator({ botToken: EMULATOR_BOT_TOKEN });
	const config = parseConfig(
		{ NODE_ENV: 'test', DATA_DIR: dir, DB_PATH: dbPath, TELEGRAM_API_ROOT: emulator.url, ...env },
		PROJECT_ROOT
	);
	const fileStore = localFileStore(dir);
	const noticeApi = createOutboxApi({ token: EMULATOR_BOT_TOKEN, apiRoot: emulator.url });
	// One reader of the settings in force for the bot and the kiosk, as in the worker and the web.
	const runtime = new RuntimeSettings({ db, clock, config });
	const history = historyWriterFor(db, config);
	const bot = createBot(
		{ token: EMULATOR_BOT_TOKEN, apiRoot: emulator.url },
		{
			db,
			clock,
			logger: silentLogger,
			config,
			fileStore,
			runtime,
			history,
			sendPacing: sendPacingWithoutWaits(db, clock)
		},
		[noticeApi]
	);
	await bot.init();
	// The worker's runner: updates recorded in the inbox, handled side by side per chat.
	const runner = new BotRunner(bot, botRunnerDeps(db, clock), { apiRoot: emulator.url });
	runner.start();
	await rememberBotUsername(db, clock, bot.botInfo.username);
	const { kiosk, key: kioskKey } = await createKiosk(db, clock, 'test-kiosk');
	const deps: KioskDeps = {
		db,
		clock,
		timeouts: sessionTimeoutsFrom(config),
		slots: config.WORKER_SLOTS,
		packsPerGuest: async () => (await runtime.read()).packsPerGuest
	};
	return {
		db,
		dbPath,
		dir,
		fileStore,
		clock,
		config,
		emulator,
		bot,
		runner,
		noticeApi,
		kiosk,
		kioskKey,
		deps,
		runtime,
		close: async () => {
			await runner.stop();
			// As the worker's stop: the history written behind the last replies lands before the database closes.
			await history.idle();
			await emulator.close();
			await db.$disconnect();
		}
	};
}

let nextUserId = 5_000_001;

/**
 * A test file's guest worlds: `start(env)` starts a fresh one for the test (its own folder), and it
 * closes after the test.
 */
export function useGuestWorlds(prefix: string): (env?: Record<string, string>) => Promise<GuestWorld> {
	const tempDir = useTempDir(prefix);
	let world: GuestWorld | undefined;
	afterEach(async () => {
		await world?.close();
		world = undefined;
	});
	return async (env = {}) => (world = await startGuestWorld(tempDir(), env));
}

export interface Guest {
	id: number;
	send(text: string): Promise<number>;
	press(messageId: number, data: string): Promise<number>;
	messages(): Promise<ChatMessageView[]>;
	/** Waits for a bot message after the `seen` first ones matching `test`. */
	waitFor(test: (m: ChatMessageView) => boolean, timeoutMs?: number): Promise<ChatMessageView>;
}

export async function newGuest(world: GuestWorld, language = 'en', name = 'Aziza'): Promise<Guest> {
	const user = await world.emulator.control.createUser({ id: nextUserId++, first_name: name, language_code: language });
	const control = world.emulator.control;
	return {
		id: user.id,
		send: async (text) => (await control.sendUserMessage({ user_id: user.id, text })).update_id ?? -1,
		press: async (messageId, data) =>
			(await control.pressButton({ user_id: user.id, message_id: messageId, callback_data: data })).update_id,
		messages: () => control.chatMessages(user.id),
		waitFor: (test, timeoutMs = 20_000) => control.waitForMessage(user.id, (m) => m.from_bot && test(m), { timeoutMs })
	};
}

/** Start on the kiosk: a new idle session, as POST /api/kiosk/sessions makes it. */
export async function startSession(world: GuestWorld): Promise<string> {
	const started = await startKioskSession(world.deps, world.kiosk.id);
	if (started.kind !== 'started') throw new Error(`kiosk could not start: ${started.kind}`);
	return started.token;
}

/**
 * What the upload endpoint gives the selfie upload service: this world's kiosk deps and the real
 * upload checker process (one per test process, as in the web process; it ends with the tests).
 */
export function uploadDeps(world: GuestWorld): UploadDeps {
	return {
		...world.deps,
		fileStore: world.fileStore,
		logger: silentLogger,
		uploadChecker: sharedUploadChecker(silentLogger)
	};
}

export async function sessionRow(world: GuestWorld, token: string) {
	return world.db.session.findUniqueOrThrow({ where: { sessionToken: token } });
}

/**
 * Polls until `check` holds (the bot handles updates asynchronously). The limit only catches a hang:
 * it ends as soon as `check` holds, and files run side by side on a machine that may be busy.
 */
export async function eventually<T>(
	read: () => Promise<T>,
	check: (value: T) => boolean,
	timeoutMs = 20_000
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (check(value)) return value;
		if (Date.now() > deadline)
			throw new Error(
				`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}`
			);
		await new Promise((resolve) => setTimeout(resolve, 25));
	}
}

/**
 * Resolves once the bot has handled every update the emulator holds for it: nothing waits at the
 * emulator (a poll confirms a batch only once it is recorded in the inbox) and nothing recorded
 * waits in the inbox. Read in that order, nothing slips between the two. The event to wait for
 * before asserting that a replay did nothing, instead of a fixed pause that a busy machine can outlast.
 */
export async function updatesHandled(world: Pick<GuestWorld, 'emulator' | 'db'>): Promise<void> {
	await eventually(
		async () => {
			const pending = (await world.emulator.control.updates()).pending.length;
			return pending + (await world.db.botUpdate.count({ where: { handledAt: null } }));
		},
		(waiting) => waiting === 0
	);
}

/** Walks a guest through /start, consent and an outfit; returns when the session is template_chosen. */
export async function guestReachesOutfit(
	world: GuestWorld,
	guest: Guest,
	token: string,
	outfitId = 'wizard'
): Promise<void> {
	await guest.send(`/start ${token}`);
	const prompt = await guest.waitFor((m) => m.buttons.flat().some((b) => b.callback_data?.startsWith('gc:')));
	await guest.press(prompt.message_id, `gc:${token}`);
	const catalogue = await guest.waitFor(
		(m) => m.photo !== undefined && m.buttons.flat().some((b) => b.callback_data?.startsWith('go:'))
	);
	await guest.press(catalogue.message_id, `go:${outfitId}:${token}`);
	await eventually(
		() => sessionRow(world, token),
		(s) => s.status === 'template_chosen'
	);
}
