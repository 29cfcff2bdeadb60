import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDb } from '../../../../tests/helpers/test-db.ts';
import { useTempDir } from '../../../../tests/helpers/temp-dir.ts';
import type { Db } from '../db/client.ts';
import { silentLogger } from '../log/logger.ts';
import { MessageHistoryWriter } from './history-writer.ts';

const entry = (n: number) => ({
	telegramUserId: 7001n,
	direction: 'out' as const,
	kind: 'text' as const,
	text: `reply ${n}`,
	messageId: BigInt(n),
	at: '2026-12-01T10:00:00.000Z'
});

describe('the message history writer', () => {
	const tempDir = useTempDir('history-writer-');
	let db: Db | undefined;
	afterEach(async () => db?.$disconnect());

	// The worker's stop waits for idle() before it closes the database (main.ts): a reply's history
	// handed over just before must land, not reopen a closed client or be lost with the process.
	it('idle() resolves once every write handed over so far has landed, one held back by a lock included', async () => {
		const created = await createTestDb(tempDir());
		db = created.db;
		const writer = new MessageHistoryWriter({ db, logger: silentLogger, pseudonymKey: Buffer.alloc(32, 1) });
		const holder = new Database(created.dbPath);
		holder.exec('BEGIN IMMEDIATE');
		writer.record(entry(1));
		writer.record(entry(2));
		const idle = writer.idle();
		holder.exec('ROLLBACK');
		holder.close();
		await idle;
		expect((await db.botMessage.findMany({ orderBy: { id: 'asc' } })).map((m) => m.text)).toEqual([
			'reply 1',
			'reply 2'
		]);
	});

	it('a failed write is logged and idle() still resolves; the next write lands', async () => {
		const created = await createTestDb(tempDir());
		db = created.db;
		const warnings: string[] = [];
		const logger = { ...silentLogger, warn: (_fields: unknown, message: string) => void warnings.push(message) };
		const writer = new MessageHistoryWriter({
			db,
			logger: logger as typeof silentLogger,
			pseudonymKey: Buffer.alloc(32, 1)
		});
		writer.record({ ...entry(1), telegramUserId: 'not a number' as unknown as bigint });
		writer.record(entry(2));
		await writer.idle();
		expect(warnings).toEqual(['message history write failed; the bot goes on']);
		expect((await db.botMessage.findMany()).map((m) => m.text)).toEqual(['reply 2']);
	});
});
