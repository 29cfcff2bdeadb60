/**
 * The SQL that differs between the two engines the product runs on: SQLite (one file, the
 * default) and PostgreSQL (several processes on one server). Everything else a query says is
 * written once, in the SQL both accept; what they disagree on is asked of the client's dialect.
 */
export type DialectName = 'sqlite' | 'postgresql';

export interface Dialect {
	readonly name: DialectName;
	/** What the health page calls the engine ("SQLite", "PostgreSQL"). */
	readonly engine: string;
	/** Selects the engine's version as `v`. */
	readonly versionSql: string;
	/** Selects `name` from the tables of the database whose name is the one `?` parameter. */
	readonly tableByNameSql: string;
	/** A statement written with `?` parameters, as the engine's driver takes it. */
	numberParams(sql: string): string;
	/** An ISO 8601 time stored as text, as a value that compares as an instant. */
	instant(textExpr: string): string;
	/** The group's values of `textExpr` joined with commas, in a stable order (for change markers). */
	joinedText(textExpr: string): string;
	/**
	 * Appended to the SELECT that picks a row to claim: locks the rows picked from `alias` and
	 * passes over rows another transaction is claiming.
	 */
	claimLock(alias: string): string;
	/** Appended to a SELECT whose rows of `alias` the transaction then writes: locks them until it ends. */
	lockRead(alias: string): string;
	/**
	 * A statement with one `?` parameter, a text key, that holds a lock on that key until the
	 * transaction ends — for a decision about rows that do not exist yet, which no row lock can
	 * hold; null where the transaction's write lock already serialises every writer (SQLite).
	 */
	readonly lockKeySql: string | null;

	// ─── What the database is, for code that must act on it (never ask for the engine's name) ───
	/**
	 * Where the data lives: `file` — one file on this host, which the process can copy, measure and
	 * snapshot (its WAL and the copies beside it); `server` — a database server, whose backups are its
	 * own dump and whose size only it can tell.
	 */
	readonly storage: 'file' | 'server';
	/**
	 * Many processes on many hosts may use this database at once (a fleet): workers share the work,
	 * leases decide who polls, and web processes register so a restore can see them. False: one
	 * worker and one web process per data folder (their instance locks), so the worker is the sole poller.
	 */
	readonly sharedServer: boolean;
	/**
	 * Waiting for another writer's lock blocks the whole process (the driver waits synchronously for
	 * the busy timeout), so a writer that must not stall the process — the log sink — uses a
	 * connection of its own that never waits. False: waits are asynchronous, the process's client serves.
	 */
	readonly lockWaitBlocksProcess: boolean;
	/** Selects the database's size in bytes as `bytes`; null where the size is the file's own. */
	readonly sizeSql: string | null;
}

const DIALECT = Symbol.for('sticker-kiosk.db.dialect');

type WithDialect = { [DIALECT]?: Dialect };

/**
 * Marks a client with the dialect of the database it opened. The mark is a property of the
 * client, and Prisma's transaction client (`tx` in `db.$transaction(async (tx) => …)`) reads
 * through to it, so one process may hold clients of several databases at once.
 */
export function withDialect<T extends object>(client: T, dialect: Dialect): T {
	(client as WithDialect)[DIALECT] = dialect;
	return client;
}

/** The dialect of a client (or its transaction client); a client opened without one is a bug. */
export function dialectOf(client: object): Dialect {
	const dialect = (client as WithDialect)[DIALECT];
	if (!dialect) throw new Error('this database client was opened without a dialect (open it with openDatabase)');
	return dialect;
}
