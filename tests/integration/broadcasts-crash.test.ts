import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EMULATOR_BOT_TOKEN } from '../../src/lib/server/config/config.ts';
import type { Db } from '../../src/lib/server/db/client.ts';
import { createTelegramEmulator, type TelegramEmulator } from '../../tools/telegram-emulator/server.ts';
import { type NodeProcess, startBuiltWorker } from '../helpers/node-process.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { createTestDb } from '../helpers/test-db.ts';
import { countDeliveries, queueBroadcast, seedGuests } from './broadcast-world.ts';

/**
 * Each consenting guest gets a broadcast once, whatever happens to the worker: the real worker
 * process sends through the emulator (in this process, so it outlives the worker), Telegram
 * answers with 429 storms, and the worker is SIGKILLed mid-send and started again. The only
 * duplicate allowed is the documented window — a message Telegram accepted whose row was not
 * recorded yet when the process died — and the test measures exactly how many rows were in it.
 */
const tempDir = useTempDir('bcast-crash-');
const children: NodeProcess[] = [];
let world: { db: Db; emulator: TelegramEmulator; env: Record<string, string>; dir: string } | undefined;

afterEach(async () => {
	for (const child of children.splice(0))
		if (child.exitCode === null && child.signalCode === null) {
			child.kill('SIGTERM');
			await child.finished;
		}
	await world?.db.$disconnect();
	await world?.emulator.close();
	world = undefined;
});

async function setUp(): Promise<NonNullable<typeof world>> {
	const dir = tempDir();
	const { db, dbPath } = await createTestDb(dir);
	const emulator = await createTelegramEmulator({ botToken: EMULATOR_BOT_TOKEN });
	const env = {
		NODE_ENV: 'test',
		DB_PATH: dbPath,
		DATA_DIR: path.join(dir, 'data'),
		TELEGRAM_API_ROOT: emulator.url,
		LOG_LEVEL: 'warn',
		BROADCAST_LEASE_SECONDS: '3'
	};
	world = { db, emulator, env, dir };
	return world;
}

function startWorker(env: Record<string, string>): NodeProcess {
	const child = startBuiltWorker({ env });
	children.push(child);
	return child;
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 90_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

const sentCount = (db: Db, broadcastId: number) =>
	db.broadcastRecipient.count({ where: { broadcastId, state: 'sent' } });
const isDone = async (db: Db, broadcastId: number) =>
	(await db.broadcast.findUnique({ where: { id: broadcastId } }))?.state === 'done';

function duplicatesOf(counts: Map<number, number>): number {
	return [...counts.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0);
}

describe('a broadcast to 200 guests through 429 storms and a worker SIGKILL', () => {
	it('reaches every consenting guest once (duplicates only inside the measured window) and marks blocked guests', async () => {
		const { db, emulator, env } = await setUp();
		const guests = await seedGuests(
			db,
			emulator,
			Array.from({ length: 200 }, () => ({})),
			undefined,
			false
		);
		const blocked = await seedGuests(
			db,
			emulator,
			Array.from({ length: 5 }, () => ({ blockedInTelegram: true })),
			undefined,
			false
		);
		const notConsented = await seedGuests(
			db,
			emulator,
			Array.from({ length: 5 }, () => ({ consented: false })),
			undefined,
			false
		);
		const id = await queueBroadcast(db, 'Thank you for coming — crash-200', 1);
		await emulator.control.injectFault({ method: 'sendMessage', kind: '429', retry_after: 1, times: 3 });

		const first = startWorker(env);
		await waitFor('60 sent', async () => (await sentCount(db, id)) >= 60);
		await emulator.control.injectFault({ method: 'sendMessage', kind: '429', retry_after: 2, times: 3 });
		await waitFor('110 sent', async () => (await sentCount(db, id)) >= 110);
		first.kill('SIGKILL');
		expect((await first.finished).signal).toBe('SIGKILL');

		// The window, measured: rows still queued (claimed) whose guest already has the message.
		const queued = await db.broadcastRecipient.findMany({
			where: { broadcastId: id, state: 'queued' },
			select: { telegramUserId: true }
		});
		const alreadyThere = await countDeliveries(
			emulator,
			queued.map((r) => Number(r.telegramUserId)),
			'crash-200'
		);
		const inWindow = [...alreadyThere.values()].filter((n) => n > 0).length;

		startWorker(env);
		await waitFor('the broadcast to finish', () => isDone(db, id));
		const counts = await countDeliveries(emulator, guests, 'crash-200');
		const duplicates = duplicatesOf(counts);
		console.info(
			`broadcast to 200 guests, SIGKILL mid-send: ${duplicates} duplicate(s), ${inWindow} row(s) inside the send-then-record window`
		);
		expect(guests.filter((g) => (counts.get(g) ?? 0) === 0)).toEqual([]);
		expect(duplicates).toBe(inWindow);
		expect(inWindow).toBeLessThanOrEqual(1);
		expect(await db.broadcastRecipient.count({ where: { broadcastId: id, state: 'sent' } })).toBe(200);

		expect(
			[...(await countDeliveries(emulator, [...blocked, ...notConsented], 'crash-200')).values()].every((n) => n === 0)
		).toBe(true);
		expect(await db.broadcastRecipient.count({ where: { broadcastId: id, state: 'blocked' } })).toBe(5);
		expect(await db.guestBotBlock.count({ where: { telegramUserId: { in: blocked.map(BigInt) } } })).toBe(5);
		const calls = (await emulator.control.callCounts()).calls.filter((c) => c.method === 'sendMessage');
		expect(calls.filter((c) => c.outcome === 429)).toHaveLength(6);
	}, 180_000);

	for (const [step, expected] of [
		['broadcast_after_claim', 0],
		['broadcast_after_send', 1]
	] as const) {
		it(`killed at ${step}: restarts after the lease, ${expected} duplicate(s)`, async () => {
			const { db, emulator, env, dir } = await setUp();
			const guests = await seedGuests(
				db,
				emulator,
				Array.from({ length: 20 }, () => ({})),
				undefined,
				false
			);
			const id = await queueBroadcast(db, `Crash step ${step}`, null);
			const marker = path.join(dir, 'crashed');
			const crashEnv = { ...env, CRASH_AT: step, CRASH_MARKER: marker };
			const first = startWorker(crashEnv);
			expect((await first.finished).signal).toBe('SIGKILL');
			expect(existsSync(marker)).toBe(true);
			startWorker(crashEnv);
			await waitFor('the broadcast to finish', () => isDone(db, id));
			const counts = await countDeliveries(emulator, guests, `Crash step ${step}`);
			expect(guests.filter((g) => (counts.get(g) ?? 0) === 0)).toEqual([]);
			expect(duplicatesOf(counts)).toBe(expected);
		}, 120_000);
	}
});
