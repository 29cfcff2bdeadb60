import Database from 'better-sqlite3';

/**
 * Another process holding SQLite's write lock (as `sqlite3` with BEGIN IMMEDIATE would), for the
 * test that a lock held past busy_timeout fails a request cleanly (503). Usage: node --import tsx tests/helpers/hold-write-lock.ts <db> <ms>
 * Prints "locked" once it holds the lock, then rolls back and exits after <ms>, or at once on
 * SIGTERM: a test that must know the lock is still held while it works gives a long <ms> and ends
 * the hold itself, instead of betting that its work fits in the time.
 */
const [dbPath, msArg] = process.argv.slice(2);
const conn = new Database(dbPath!, { timeout: 10_000 });
conn.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\n');
const release = () => {
	conn.exec('ROLLBACK');
	conn.close();
	process.exit(0);
};
const timer = setTimeout(release, Number(msArg));
process.on('SIGTERM', () => {
	clearTimeout(timer);
	release();
});
