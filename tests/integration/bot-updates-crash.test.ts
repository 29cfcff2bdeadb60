import path from 'node:path';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { EMULATOR_BOT_TOKEN } from '../../src/lib/server/config/config.ts';
import { BOT_UPDATE_CRASH_STEPS } from '../../src/lib/server/jobs/run/crash-points.ts';
import { createTelegramEmulator, type TelegramEmulator } from '../../tools/telegram-emulator/server.ts';
import { PROCESS_WAIT_MS, startBuiltWorker } from '../helpers/node-process.ts';
import { useTestDb } from '../helpers/test-db.ts';
import { eventually } from './guest-harness.ts';

const BAD_CODE = '/start AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
/** The first is a guest step (once per update: processed_updates), the middle one a plain reply. */
const TEXTS = [BAD_CODE, '/start', BAD_CODE];
/** What the bot's reply answers: a code that is not valid, or a bare /start. */
const replyKind = (reply: string) => (/code is not valid/.test(reply) ? 'bad code' : 'how to begin');
const EXPECTED = TEXTS.map((text) => (text === BAD_CODE ? 'bad code' : 'how to begin'));

/**
 * The real worker process SIGKILLed in the middle of a batch of updates (CRASH_AT, as in the
 * generation crash tests), then started again. Four guests have written three messages each before
 * the worker starts, so its first poll takes all twelve as one batch:
 * - after_updates_recorded — the batch is in the inbox, not yet confirmed to Telegram, nothing handled;
 * - after_update_handled — the first update (a guest step) is answered, not yet marked in the inbox
 *   (the killed worker handles one update at a time, BOT_UPDATE_CONCURRENCY=1, so no other reply is
 *   half-way); handled again from the inbox, the guest step's own record skips it.
 * The restarted worker loses nothing and handles nothing twice: every guest has exactly one reply
 * per message, in the order written, and nothing waits at the emulator or in the inbox.
 */
describe('a worker killed in the middle of a batch of updates', () => {
	const testDb = useTestDb('bot-updates-crash-');
	const cleanups: (() => Promise<unknown>)[] = [];
	afterEach(async () => {
		for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
	});

	function startWorker(env: Record<string, string>) {
		const worker = startBuiltWorker({ env });
		cleanups.push(async () => {
			if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGTERM');
			await worker.finished;
		});
		return worker;
	}

	const botReplies = async (emulator: TelegramEmulator, userId: number) =>
		(await emulator.control.chatMessages(userId)).filter((m) => m.from_bot).map((m) => m.text ?? '');

	for (const step of BOT_UPDATE_CRASH_STEPS) {
		it(`${step}: the restarted worker answers every message once, in order`, async () => {
			const emulator = await createTelegramEmulator({ botToken: EMULATOR_BOT_TOKEN });
			cleanups.push(() => emulator.close());
			const { db, dbEnv, dir } = await testDb();
			const guests: number[] = [];
			for (let i = 0; i < 4; i++) {
				const user = await emulator.control.createUser({ first_name: `Guest ${i}`, language_code: 'en' });
				guests.push(user.id);
				for (const text of TEXTS) await emulator.control.sendUserMessage({ user_id: user.id, text });
			}
			const env = { NODE_ENV: 'test', ...dbEnv, DATA_DIR: dir, TELEGRAM_API_ROOT: emulator.url };
			const marker = path.join(dir, 'crash-marker');

			const first = startWorker({
				...env,
				CRASH_AT: step,
				CRASH_MARKER: marker,
				...(step === 'after_update_handled' ? { BOT_UPDATE_CONCURRENCY: '1' } : {})
			});
			const killed = await first.finished;
			expect(killed.signal, killed.stderr).toBe('SIGKILL');
			expect(existsSync(marker)).toBe(true);
			// The whole batch is in the inbox, none of it marked; the one update answered before the kill
			// (after_update_handled) is the only reply so far.
			expect(await db.botUpdate.count({ where: { handledAt: null } })).toBe(12);
			const answeredBeforeKill = (await Promise.all(guests.map((id) => botReplies(emulator, id)))).flat();
			expect(answeredBeforeKill).toHaveLength(step === 'after_update_handled' ? 1 : 0);

			startWorker(env);
			for (const id of guests)
				await eventually(
					() => botReplies(emulator, id),
					(replies) => replies.length >= TEXTS.length,
					PROCESS_WAIT_MS
				);
			await eventually(
				async () =>
					(await emulator.control.updates()).pending.length +
					(await db.botUpdate.count({ where: { handledAt: null } })),
				(waiting) => waiting === 0,
				PROCESS_WAIT_MS
			);
			for (const id of guests) expect((await botReplies(emulator, id)).map(replyKind)).toEqual(EXPECTED);
			expect(await db.botUpdate.count()).toBe(12);
		}, 240_000);
	}
});
