import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import type {
	IsolationLevel,
	SqlDriverAdapter,
	SqlMigrationAwareDriverAdapterFactory,
	SqlQuery,
	Transaction
} from '@prisma/driver-adapter-utils';

/**
 * Prisma's better-sqlite3 adapter opens transactions with a plain (deferred) BEGIN. A deferred
 * transaction that reads and then writes must upgrade its lock, and in WAL mode SQLite answers an
 * upgrade that collides with another writer with SQLITE_BUSY at once, ignoring busy_timeout. Our
 * rule is BEGIN IMMEDIATE for every read-then-write transaction, so this wrapper
 * takes the write lock up front, where busy_timeout does apply.
 *
 * The adapter has one connection. While a transaction is open, a query from another async flow
 * (a second worker slot, a concurrent request) would silently run inside it and be rolled back
 * with it, so every query outside the transaction waits for the transaction to finish.
 */
export class ImmediateSqliteAdapterFactory implements SqlMigrationAwareDriverAdapterFactory {
	readonly provider = 'sqlite' as const;
	readonly adapterName: string;
	readonly #inner: PrismaBetterSqlite3;
	readonly #onConnect: (adapter: SqlDriverAdapter) => Promise<void>;

	constructor(inner: PrismaBetterSqlite3, onConnect: (adapter: SqlDriverAdapter) => Promise<void>) {
		this.#inner = inner;
		this.adapterName = inner.adapterName;
		this.#onConnect = onConnect;
	}

	async connect(): Promise<SqlDriverAdapter> {
		const adapter = await this.#inner.connect();
		await this.#onConnect(adapter);
		return wrapAdapter(adapter);
	}

	connectToShadowDb(): Promise<SqlDriverAdapter> {
		return this.#inner.connectToShadowDb();
	}
}

function wrapAdapter(inner: SqlDriverAdapter): SqlDriverAdapter {
	const lock = new AsyncLock();
	const outside = <T>(run: () => Promise<T>) => lock.run(run);
	return {
		provider: inner.provider,
		adapterName: inner.adapterName,
		queryRaw: (q: SqlQuery) => outside(() => inner.queryRaw(q)),
		executeRaw: (q: SqlQuery) => outside(() => inner.executeRaw(q)),
		executeScript: (script: string) => outside(() => inner.executeScript(script)),
		getConnectionInfo: inner.getConnectionInfo?.bind(inner),
		dispose: () => inner.dispose(),
		startTransaction: (isolationLevel?: IsolationLevel) => beginImmediate(inner, lock, isolationLevel)
	};
}

async function beginImmediate(
	inner: SqlDriverAdapter,
	lock: AsyncLock,
	isolationLevel?: IsolationLevel
): Promise<Transaction> {
	if (isolationLevel && isolationLevel !== 'SERIALIZABLE') {
		throw new Error(`SQLite transactions are always SERIALIZABLE (asked for ${isolationLevel})`);
	}
	const release = await lock.acquire();
	try {
		await inner.executeRaw(raw('BEGIN IMMEDIATE'));
	} catch (error) {
		release();
		throw error;
	}
	const savepoint = (sql: string) => inner.executeRaw(raw(sql)).then(() => undefined);
	return {
		provider: inner.provider,
		adapterName: inner.adapterName,
		// Prisma sends COMMIT/ROLLBACK itself when usePhantomQuery is false; commit()/rollback() only release.
		options: { usePhantomQuery: false },
		queryRaw: (q) => inner.queryRaw(q),
		executeRaw: (q) => inner.executeRaw(q),
		commit: async () => release(),
		rollback: async () => release(),
		createSavepoint: (name) => savepoint(`SAVEPOINT ${name}`),
		rollbackToSavepoint: (name) => savepoint(`ROLLBACK TO ${name}`),
		releaseSavepoint: (name) => savepoint(`RELEASE SAVEPOINT ${name}`)
	};
}

function raw(sql: string): SqlQuery {
	return { sql, args: [], argTypes: [] };
}

/** A FIFO mutex: `acquire` resolves with the release function. */
export class AsyncLock {
	#tail: Promise<void> = Promise.resolve();

	acquire(): Promise<() => void> {
		let release!: () => void;
		const held = new Promise<void>((resolve) => (release = resolve));
		const ready = this.#tail.then(() => release);
		this.#tail = this.#tail.then(() => held);
		return ready;
	}

	async run<T>(task: () => Promise<T>): Promise<T> {
		const release = await this.acquire();
		try {
			return await task();
		} finally {
			release();
		}
	}
}
