import { Writable } from 'node:stream';
import { GrammyError } from 'grammy';
import { afterEach, describe, expect, it } from 'vitest';
import { EMULATOR_BOT_TOKEN, parseConfig } from '../../src/lib/server/config/config.ts';
import type { Db } from '../../src/lib/server/db/client.ts';
import { loadPseudonymKey, pseudonymForGuest } from '../../src/lib/server/lifecycle/pseudonym.ts';
import { openLogEntryWriter } from '../../src/lib/server/log/log-entry-writer.ts';
import { createLogger } from '../../src/lib/server/log/logger.ts';
import { LogSink } from '../../src/lib/server/log/log-sink.ts';
import { botText } from '../../src/lib/i18n/bot.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import { createBot } from '../../src/worker/bot/index.ts';
import { BotRunner } from '../../src/worker/bot/runner.ts';
import { createTelegramEmulator } from '../../tools/telegram-emulator/server.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { botRunnerDeps } from '../helpers/bot-runner.ts';
import { createTestDb } from '../helpers/test-db.ts';
import { consoleCaller, insertOperator } from './console-fixtures.ts';
import { botDepsFor } from '../helpers/bot-deps.ts';

/**
 * The Logs page (viewers read it) and log_entries (which backups copy) hold no guest's message
 * text, no Telegram payload and no Telegram id in clear: ids show as the audit log's pseudonyms.
 */
describe('guests in log_entries', () => {
	const tempDir = useTempDir('log-guest-privacy-');
	const cleanups: (() => Promise<void> | void)[] = [];
	afterEach(async () => {
		for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
	});

	async function setUp() {
		const dir = tempDir();
		const { db, dbPath } = await createTestDb(dir);
		const key = loadPseudonymKey(dir);
		const sink = new LogSink('worker', { flushEveryMs: 60_000, pseudonymKey: key });
		sink.attach(openLogEntryWriter(dbPath), { workerId: 'host:1:1' });
		const stdout = new Writable({ write: (_chunk, _encoding, done) => done() });
		const logger = createLogger('worker', 'info', { warningsTo: sink, stdout });
		cleanups.push(
			() => sink.close(),
			() => db.$disconnect()
		);
		return { dir, db, dbPath, key, sink, logger };
	}

	const stored = async (db: Db) => JSON.stringify(await db.logEntry.findMany());

	it('a failed call’s payload and an update: texts and names removed, ids pseudonymised, the rest kept', async () => {
		const { db, key, sink, logger } = await setUp();
		const guest = 987654321;
		const failed = new GrammyError(
			"Call to 'sendMessage' failed!",
			{ ok: false, error_code: 400, description: 'Bad Request: message is too long' },
			'sendMessage',
			{ chat_id: guest, text: 'Your stickers are ready: t.me/addstickers/u987654321_1_by_kiosk_bot' }
		);
		const update = {
			update_id: 77,
			message: {
				message_id: 9,
				from: { id: guest, first_name: 'Aziz', username: 'aziz_t' },
				chat: { id: guest, type: 'private' },
				text: 'my secret words'
			}
		};
		logger.error(
			{ err: failed, update, telegramUserId: String(guest), text: 'a guest wrote this', leadId: 4 },
			'bot handler failed'
		);
		sink.flush();

		const all = await stored(db);
		for (const leaked of [
			'Your stickers are ready',
			'u987654321',
			'my secret words',
			'Aziz',
			'aziz_t',
			'a guest wrote this',
			String(guest)
		])
			expect(all).not.toContain(leaked);
		const row = await db.logEntry.findFirstOrThrow();
		const context = JSON.parse(row.context ?? '{}');
		const pseudonym = pseudonymForGuest(key, BigInt(guest));
		expect(context.err.payload).toEqual({ chat_id: pseudonym, text: '[removed]' });
		expect(context.err).toMatchObject({
			method: 'sendMessage',
			error_code: 400,
			description: 'Bad Request: message is too long'
		});
		expect(context.update).toEqual({
			update_id: 77,
			message: {
				message_id: 9,
				from: { id: pseudonym, first_name: '[removed]', username: '[removed]' },
				chat: { id: pseudonym, type: '[removed]' },
				text: '[removed]'
			}
		});
		expect(context).toMatchObject({ telegramUserId: pseudonym, text: '[removed]', leadId: 4 });
		expect(row.message).toBe('bot handler failed');
	});

	it('the bot’s failed reply to a guest reaches the Logs page without its text or the guest’s id', async () => {
		const { dir, db, dbPath, key, sink, logger } = await setUp();
		const emulator = await createTelegramEmulator({ botToken: EMULATOR_BOT_TOKEN });
		cleanups.push(() => emulator.close());
		const config = parseConfig({ DB_PATH: dbPath, DATA_DIR: dir, TELEGRAM_API_ROOT: emulator.url });
		const clock = new FakeClock('2026-06-01T10:00:00.000Z');
		const user = await emulator.control.createUser({ first_name: 'Madina', username: 'madina_k', language_code: 'en' });
		// The guest writes, then blocks the bot before it answers: Telegram refuses the reply and the
		// error boundary logs the failed call (its payload holds the reply's text and the guest's chat).
		await emulator.control.sendUserMessage({ user_id: user.id, text: '/start' });
		await emulator.control.setBlocked(user.id, true);
		const runner = new BotRunner(
			createBot({ token: EMULATOR_BOT_TOKEN, apiRoot: emulator.url }, botDepsFor(db, clock, config, logger)),
			botRunnerDeps(db, clock, logger),
			{ apiRoot: emulator.url }
		);
		runner.start();
		cleanups.push(() => runner.stop());
		const deadline = Date.now() + 15_000;
		while ((await db.logEntry.count()) === 0 && Date.now() < deadline) {
			sink.flush();
			await new Promise((resolve) => setTimeout(resolve, 50));
		}

		const viewer = consoleCaller(db, clock, dir, await insertOperator(db, clock, 'vera', 'viewer'));
		const page = JSON.stringify(await viewer.logs.list({}));
		expect(page).toContain('bot handler failed');
		expect(page).toContain(pseudonymForGuest(key, BigInt(user.id)));
		const replyText = botText('en', 'welcomeWithoutToken');
		for (const leaked of [replyText.slice(0, 40), String(user.id), 'Madina', 'madina_k']) {
			expect(page).not.toContain(leaked);
			expect(await stored(db)).not.toContain(leaked);
		}
	}, 60_000);
});
