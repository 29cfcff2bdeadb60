import { randomUUID } from 'node:crypto';
import { afterEach } from 'vitest';
import { Api, type Bot } from 'grammy';
import { EMULATOR_BOT_TOKEN, parseConfig, type Config } from '../../src/lib/server/config/config.ts';
import type { Db } from '../../src/lib/server/db/client.ts';
import { receiveLead, type IncomingLead } from '../../src/lib/server/leads/lead-intake.ts';
import { EMULATOR_SALES_GROUP_ID } from '../../src/lib/server/leads/leads-config.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import type { BotContext } from '../../src/worker/bot/context.ts';
import { RuntimeSettings } from '../../src/lib/server/settings/runtime-settings.ts';
import { createBot } from '../../src/worker/bot/index.ts';
import { ChatCooldown } from '../../src/lib/server/telegram/flood-control.ts';
import type { LeadsTaskDeps } from '../../src/worker/tasks/leads-deps.ts';
import { createTelegramEmulator, type TelegramEmulator } from '../../tools/telegram-emulator/server.ts';
import { PROJECT_ROOT } from '../helpers/node-process.ts';
import { createTestDb } from '../helpers/test-db.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { localFileStore } from '../helpers/file-store.ts';
import { sendPacingWithoutWaits } from '../helpers/send-pacing.ts';
import { historyWriterFor } from '../helpers/bot-deps.ts';
import { paceThroughBudget } from '../../src/lib/server/telegram/send-budget-api.ts';

/**
 * The leads world for integration tests: a migrated database (SQLite, or PostgreSQL under
 * TEST_DB_ENGINE=postgresql), the Telegram emulator as a real HTTP server with its "Sales" group,
 * a FakeClock, and the leads tasks' deps. `restart()` drops the database client and the in-memory
 * state (cooldowns) as a process restart would.
 */
export const GROUP = Number(EMULATOR_SALES_GROUP_ID);
export const ADMIN = {
	id: 601_000_001,
	first_name: 'Malika',
	last_name: 'Karimova',
	username: 'malika_sales',
	language_code: 'ru'
};
export const STRANGER = { id: 601_000_002, first_name: 'Bob', username: 'bob_guest', language_code: 'en' };

export interface LeadsWorld {
	dir: string;
	dbPath: string;
	db: Db;
	clock: FakeClock;
	emulator: TelegramEmulator;
	config: Config;
	deps: LeadsTaskDeps;
	restart(): Promise<void>;
	close(): Promise<void>;
}

export async function startLeadsWorld(dir: string, start = '2026-06-01T06:00:00.000Z'): Promise<LeadsWorld> {
	const { db, dbPath, dbEnv, reopen } = await createTestDb(dir);
	const clock = new FakeClock(start);
	const emulator = await createTelegramEmulator({ botToken: EMULATOR_BOT_TOKEN, adminIds: [ADMIN.id] });
	await emulator.control.createUser(ADMIN);
	await emulator.control.createUser(STRANGER);
	await emulator.control.addGroupMember(GROUP, STRANGER.id);
	const config = parseConfig(
		{
			NODE_ENV: 'test',
			DATA_DIR: dir,
			...dbEnv,
			TELEGRAM_API_ROOT: emulator.url,
			ADMIN_TELEGRAM_IDS: String(ADMIN.id)
		},
		PROJECT_ROOT
	);
	const world: LeadsWorld = {
		dir,
		dbPath,
		db,
		clock,
		emulator,
		config,
		deps: makeDeps(db, clock, emulator),
		restart: async () => {
			await world.db.$disconnect();
			world.db = reopen();
			world.deps = makeDeps(world.db, clock, emulator);
		},
		close: async () => {
			await emulator.close();
			await world.db.$disconnect();
		}
	};
	return world;
}

function makeDeps(db: Db, clock: FakeClock, emulator: TelegramEmulator): LeadsTaskDeps {
	// Paced like the worker's leads client (no sender skips the budget), with limits that never wait.
	const pacing = sendPacingWithoutWaits(db, clock);
	const api = new Api(EMULATOR_BOT_TOKEN, { apiRoot: emulator.url });
	paceThroughBudget(api, pacing);
	return {
		db,
		clock,
		logger: silentLogger,
		api,
		budget: pacing.budget,
		chatId: EMULATOR_SALES_GROUP_ID,
		locale: 'ru',
		cooldown: new ChatCooldown(),
		random: () => 0.5
	};
}

let phoneSeq = 1000000;

/** A landing submission as the form action passes it to the intake (fresh request_id and phone). */
export function submission(overrides: Partial<IncomingLead> = {}): IncomingLead {
	return {
		requestId: randomUUID(),
		name: 'Aziza',
		telegram: `@aziza_${phoneSeq}`,
		phone: `+99890${phoneSeq++}`,
		eventDate: '15 June',
		guests: '200',
		comment: 'Wedding at Hyatt',
		locale: 'ru',
		utmSource: 'instagram',
		ipHash: 'a'.repeat(32),
		...overrides
	};
}

export async function addLead(world: LeadsWorld, overrides: Partial<IncomingLead> = {}): Promise<number> {
	const result = await receiveLead(world, submission({ ipHash: randomUUID().replace(/-/g, ''), ...overrides }));
	if (result.outcome !== 'lead') throw new Error(`expected a new lead, got ${result.outcome}`);
	return result.leadId;
}

export async function groupMessages(world: LeadsWorld) {
	return (await world.emulator.control.chatMessages(GROUP)).filter((m) => m.from_bot);
}

export async function sendCount(world: LeadsWorld): Promise<number> {
	return (await world.emulator.control.callCounts()).byChat[`sendMessage:${GROUP}`] ?? 0;
}

/** The production bot (every feature) polling the emulator, for button presses and commands. */
export async function startBot(world: LeadsWorld): Promise<{ bot: Bot<BotContext>; stop: () => Promise<void> }> {
	const history = historyWriterFor(world.db, world.config);
	const bot = createBot(
		{ token: EMULATOR_BOT_TOKEN, apiRoot: world.emulator.url },
		{
			db: world.db,
			clock: world.clock,
			logger: silentLogger,
			config: world.config,
			fileStore: localFileStore(world.dir),
			sendPacing: sendPacingWithoutWaits(world.db, world.clock),
			runtime: new RuntimeSettings(world),
			history
		}
	);
	await bot.init();
	const polling = bot.start({ allowed_updates: ['message', 'callback_query'], timeout: 1 });
	return {
		bot,
		stop: async () => {
			await bot.stop();
			await polling.catch(() => undefined);
			await history.idle();
		}
	};
}

/**
 * A describe's leads worlds: each test starts its own (`start()`), with the production bot polling
 * it when the test asks (`startBot()`); after each test the bot stops and the world closes.
 */
export function useLeadsWorlds(prefix: string) {
	const tempDir = useTempDir(prefix);
	let world: LeadsWorld | undefined;
	let stopBot: (() => Promise<void>) | undefined;
	afterEach(async () => {
		await stopBot?.();
		stopBot = undefined;
		await world?.close();
		world = undefined;
	});
	return {
		start: async (): Promise<LeadsWorld> => (world = await startLeadsWorld(tempDir())),
		startBot: async (on: LeadsWorld): Promise<void> => {
			stopBot = (await startBot(on)).stop;
		}
	};
}

export async function eventually<T>(
	read: () => Promise<T>,
	check: (value: T) => boolean,
	timeoutMs = 5_000
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (check(value)) return value;
		if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
		await new Promise((resolve) => setTimeout(resolve, 25));
	}
}
