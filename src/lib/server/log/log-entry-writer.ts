import type { DatabaseTarget } from '../config/config.ts';
import type { Db } from '../db/client.ts';
import { placeOf } from '../db/database-place.ts';
import { dialectOf } from '../db/dialect/dialect.ts';
import { openSqliteFile } from '../db/sqlite-file.ts';
import type { LogEntryDraft } from './log-line.ts';

export interface StoredLogEntry extends LogEntryDraft {
	workerId: string | null;
}

/** Where the log sink puts its batches; tests may pass their own. */
export interface LogEntryWriter {
	/**
	 * All or nothing; throws (SQLITE_BUSY among others) when the batch could not be stored. A
	 * writer that waits for a server returns a promise instead, rejected when the batch was not stored.
	 */
	insert(entries: StoredLogEntry[]): void | Promise<void>;
	close(): void;
}

/**
 * A connection of its own, with busy_timeout 0, instead of the Prisma client: better-sqlite3 waits
 * for a lock synchronously, and the lock holder is often our own process (an interactive
 * transaction between two awaits), which cannot let go while we wait. So a busy database costs
 * one failed BEGIN, the sink keeps the batch and tries again at its next tick.
 */
export function openLogEntryWriter(dbPath: string): LogEntryWriter {
	const conn = openSqliteFile(dbPath);
	conn.pragma('busy_timeout = 0');
	const insertOne = conn.prepare(
		'INSERT INTO log_entries (at, process, level, message, context, worker_id) VALUES (@at, @process, @level, @message, @context, @workerId)'
	);
	const insertAll = conn.transaction((entries: StoredLogEntry[]) => {
		for (const entry of entries) insertOne.run(entry);
	});
	return {
		insert: (entries) => insertAll.immediate(entries),
		close: () => conn.close()
	};
}

/**
 * The writer for the database the process runs on: a connection of its own to the file where
 * waiting for a lock would block the process (the dialect's `lockWaitBlocksProcess`), otherwise
 * the process's client.
 */
export function logEntryWriterFor(database: DatabaseTarget, db: Db): LogEntryWriter {
	const place = placeOf(database);
	return dialectOf(db).lockWaitBlocksProcess && place.storage === 'file'
		? openLogEntryWriter(place.path)
		: clientLogEntryWriter(db);
}

/**
 * Through the Prisma client, where its pool waits for a connection without blocking the process
 * (PostgreSQL), so the reason for a connection of our own does not apply. The client belongs
 * to the process, which closes it; close() leaves it open.
 */
export function clientLogEntryWriter(db: Db): LogEntryWriter {
	return {
		insert: async (entries) => {
			await db.logEntry.createMany({ data: entries });
		},
		close: () => undefined
	};
}
