import { openSqliteFile } from '../db/sqlite-file.ts';
import type { LogEntryDraft } from './log-line.ts';

export interface StoredLogEntry extends LogEntryDraft {
	workerId: string | null;
}

/** Where the log sink puts its batches; tests may pass their own. */
export interface LogEntryWriter {
	/** All or nothing; throws (SQLITE_BUSY among others) when the batch could not be stored. */
	insert(entries: StoredLogEntry[]): void;
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
