import Database from 'better-sqlite3';

/**
 * Another process holding SQLite's write lock (as `sqlite3` with BEGIN IMMEDIATE would), for the
 * test that a lock held past busy_timeout fails a request cleanly (503). Usage: node --import tsx tests/helpers/hold-write-lock.ts <db> <ms>
 * Prints "locked" once it holds the lock, then rolls back and exits after <ms>.
 */
const [dbPath, msArg] = process.argv.slice(2);
const conn = new Database(dbPath!, { timeout: 10_000 });
conn.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\n');
setTimeout(() => {
	conn.exec('ROLLBACK');
	conn.close();
}, Number(msArg));
