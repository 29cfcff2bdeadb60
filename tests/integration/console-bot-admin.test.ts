import { afterEach, describe, expect, it } from 'vitest';
import { EMULATOR_BOT_TOKEN, parseConfig } from '../../src/lib/server/config/config.ts';
import { readMaintenance } from '../../src/lib/server/settings/maintenance.ts';
import { pauseByPerson } from '../../src/lib/server/settings/operator-pause.ts';
import { botText } from '../../src/lib/i18n/bot.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import { createBot } from '../../src/worker/bot/index.ts';
import { adminPauseText } from '../../src/lib/i18n/admin-pause.ts';
import { createTelegramEmulator } from '../../tools/telegram-emulator/server.ts';
import { PROJECT_ROOT } from '../helpers/node-process.ts';
import { createTestDb } from '../helpers/test-db.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { botDepsFor } from '../helpers/bot-deps.ts';

const ADMIN = 9_100_001;
const STRANGER = 9_100_002;

describe('/pause and /resume in the bot (through the Telegram emulator)', () => {
	const tempDir = useTempDir('console-bot-');
	const closers: (() => Promise<void>)[] = [];
	afterEach(async () => {
		for (const close of closers.splice(0).reverse()) await close();
	});

	async function startWorld() {
		const dir = tempDir();
		const { db, dbPath } = await createTestDb(dir);
		closers.push(() => db.$disconnect());
		const emulator = await createTelegramEmulator({ botToken: EMULATOR_BOT_TOKEN });
		closers.push(() => emulator.close());
		const config = parseConfig(
			{
				NODE_ENV: 'test',
				DATA_DIR: dir,
				DB_PATH: dbPath,
				TELEGRAM_API_ROOT: emulator.url,
				ADMIN_TELEGRAM_IDS: String(ADMIN)
			},
			PROJECT_ROOT
		);
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const bot = createBot({ token: EMULATOR_BOT_TOKEN, apiRoot: emulator.url }, botDepsFor(db, clock, config));
		await bot.init();
		const polling = bot.start({ allowed_updates: ['message', 'callback_query'], timeout: 1 });
		closers.push(async () => {
			await bot.stop();
			await polling.catch(() => undefined);
		});
		const control = emulator.control;
		await control.createUser({ id: ADMIN, first_name: 'Admin', language_code: 'ru' });
		await control.createUser({ id: STRANGER, first_name: 'Stranger', language_code: 'en' });
		const say = (user: number, text: string) => control.sendUserMessage({ user_id: user, text });
		const botReplies = async (user: number) =>
			(await control.chatMessages(user)).filter((m) => m.from_bot).map((m) => m.text ?? '');
		const waitForReply = (user: number, text: string) =>
			control.waitForMessage(user, (m) => m.from_bot && m.text === text, { timeoutMs: 8_000 });
		return { db, say, botReplies, waitForReply };
	}

	it('an admin pauses and resumes, answered in their language; both are audited', async () => {
		const { db, say, waitForReply } = await startWorld();
		await say(ADMIN, '/pause venue network down');
		await waitForReply(ADMIN, adminPauseText('ru', 'paused'));
		expect(await readMaintenance(db)).toMatchObject({ source: 'admin', reason: 'venue network down' });

		await say(ADMIN, '/resume');
		await waitForReply(ADMIN, adminPauseText('ru', 'resumed'));
		expect(await readMaintenance(db)).toBeNull();

		await say(ADMIN, '/resume');
		await waitForReply(ADMIN, adminPauseText('ru', 'notPaused'));
		const audit = await db.auditLog.findMany({ orderBy: { id: 'asc' } });
		expect(audit.map((a) => `${a.action}:${a.actor}`)).toEqual([`pause:telegram:${ADMIN}`, `resume:telegram:${ADMIN}`]);
		expect(JSON.parse(audit[0]!.details!)).toEqual({ reason: 'venue network down', via: 'bot' });
		expect(JSON.parse(audit[1]!.details!)).toMatchObject({
			was: { source: 'admin', reason: 'venue network down' },
			via: 'bot'
		});
	});

	it('a stranger’s /pause and /resume change nothing and get no admin answer', async () => {
		const { db, say, botReplies, waitForReply } = await startWorld();
		await say(STRANGER, '/pause');
		await say(STRANGER, '/resume');
		// The bot handles one update after another: once /help is answered, both commands were seen.
		await say(STRANGER, '/help');
		const welcome = await waitForAnyReply(botReplies, STRANGER);
		expect(welcome).toBeTruthy();
		expect(await readMaintenance(db)).toBeNull();
		expect(await db.auditLog.count()).toBe(0);
		const adminTexts = (['paused', 'resumed', 'notPaused', 'alreadyPaused'] as const).flatMap((key) =>
			(['en', 'ru', 'uz'] as const).map((l) => adminPauseText(l, key).slice(0, 20))
		);
		for (const reply of await botReplies(STRANGER))
			for (const text of adminTexts) expect(reply.startsWith(text)).toBe(false);

		// And a pause set by an admin is not lifted by a stranger's /resume.
		await say(ADMIN, '/pause');
		await waitForReply(ADMIN, adminPauseText('ru', 'paused'));
		await say(STRANGER, '/resume');
		// Answered "already paused" only after the stranger's /resume was handled before it.
		await say(ADMIN, '/pause');
		await waitForReply(
			ADMIN,
			adminPauseText('ru', 'alreadyPaused', {
				at: '2026-03-01T10:00:00.000Z',
				reason: adminPauseText('ru', 'defaultReason')
			})
		);
		expect(await readMaintenance(db)).not.toBeNull();
	});

	it('a pause with words for guests: a guest writing to the bot reads them, never the staff’s reason', async () => {
		const { db, say, waitForReply, botReplies } = await startWorld();
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		await pauseByPerson(db, clock, { name: 'olga', ip: null }, 'console', 'gemini quota, call Anvar', 'Back at 14:00');
		await say(STRANGER, '/start');
		await waitForReply(STRANGER, botText('en', 'pausedWithNote', { note: 'Back at 14:00' }));
		expect((await botReplies(STRANGER)).join('\n')).not.toContain('Anvar');
		const audit = await db.auditLog.findFirstOrThrow({ where: { action: 'pause' } });
		expect(JSON.parse(audit.details!)).toEqual({
			reason: 'gemini quota, call Anvar',
			via: 'console',
			guestNote: 'Back at 14:00'
		});
	});
});

async function waitForAnyReply(botReplies: (user: number) => Promise<string[]>, user: number): Promise<string> {
	const deadline = Date.now() + 8_000;
	while (Date.now() < deadline) {
		const replies = await botReplies(user);
		if (replies.length > 0) return replies.at(-1)!;
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	throw new Error('the bot did not answer /help');
}
