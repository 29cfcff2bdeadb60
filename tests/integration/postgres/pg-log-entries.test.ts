import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { logEntryWriterFor } from '../../../src/lib/server/log/log-entry-writer.ts';
import { createLogger } from '../../../src/lib/server/log/logger.ts';
import { LogSink } from '../../../src/lib/server/log/log-sink.ts';
import { usePgTestDb } from '../../helpers/pg-test-db.ts';

const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() });

describe('warnings and errors in log_entries on PostgreSQL', () => {
	const database = usePgTestDb();

	it('the sink stores them through the process client, with the worker id, and keeps the batch when the insert fails', async () => {
		const { db, url } = database();
		const troubles: string[] = [];
		const sink = new LogSink('worker', { flushEveryMs: 60_000, onTrouble: (message) => troubles.push(message) });
		sink.attach(logEntryWriterFor({ engine: 'postgresql', url }, db), { workerId: 'host:7:1' });
		const logger = createLogger('worker', 'info', { warningsTo: sink, stdout: quiet() });

		logger.info('not stored');
		logger.warn({ jobId: 12 }, 'provider slow');
		sink.flush();
		await sink.settled();
		expect(
			await db.logEntry.findMany({
				select: { process: true, level: true, message: true, context: true, workerId: true }
			})
		).toEqual([
			{
				process: 'worker',
				level: 'warn',
				message: 'provider slow',
				context: JSON.stringify({ jobId: 12 }),
				workerId: 'host:7:1'
			}
		]);
		expect(sink.pendingLines).toBe(0);

		// A batch the database refuses stays queued for the next flush: with the table renamed away
		// for a moment the insert fails as it would while the server is unavailable.
		await db.$executeRawUnsafe('ALTER TABLE log_entries RENAME TO log_entries_away');
		logger.error('queue stalled');
		sink.flush();
		await sink.settled();
		expect(sink.pendingLines).toBe(1);
		await db.$executeRawUnsafe('ALTER TABLE log_entries_away RENAME TO log_entries');
		sink.flush();
		await sink.settled();
		expect(sink.pendingLines).toBe(0);
		expect((await db.logEntry.findMany({ orderBy: { id: 'asc' } })).map((row) => row.message)).toEqual([
			'provider slow',
			'queue stalled'
		]);
		sink.close();
		expect(troubles).toEqual([]);
	});
});
