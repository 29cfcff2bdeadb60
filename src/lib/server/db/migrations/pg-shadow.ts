import { randomUUID } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import pg from 'pg';

/**
 * The schema engine's PostgreSQL connections for a server it may create a scratch ("shadow")
 * database on to replay migrations. Not PrismaPg's own connectToShadowDb: that drops the scratch
 * database while its pool still holds a connection to it, which PostgreSQL refuses. Here the pool
 * is closed first and the drop forced. Connections use CharAsTextClient (below).
 */
export class PgShadowFactory implements SqlMigrationAwareDriverAdapterFactory {
	readonly provider = 'postgres' as const;
	readonly adapterName = '@prisma/adapter-pg';
	readonly #server: pg.ClientConfig;

	/** The URL's parts rather than the URL: a scratch pool must be able to override `database`. */
	constructor(serverUrl: string) {
		const url = new URL(serverUrl);
		this.#server = {
			host: url.hostname,
			port: Number(url.port || 5432),
			user: decodeURIComponent(url.username),
			password: decodeURIComponent(url.password),
			database: decodeURIComponent(url.pathname.slice(1)) || 'postgres'
		};
	}

	connect(): Promise<SqlDriverAdapter> {
		return new PrismaPg({ ...this.#server, Client: CharAsTextClient }).connect();
	}

	async connectToShadowDb(): Promise<SqlDriverAdapter> {
		const database = `prisma_migrate_shadow_db_${randomUUID().replace(/-/g, '')}`;
		await this.#onServer(`CREATE DATABASE "${database}"`);
		const adapter = await new PrismaPg({ ...this.#server, database, Client: CharAsTextClient }).connect();
		const dispose = adapter.dispose.bind(adapter);
		adapter.dispose = async () => {
			await dispose();
			await this.#onServer(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
		};
		return adapter;
	}

	async #onServer(sql: string): Promise<void> {
		const client = new pg.Client(this.#server);
		await client.connect();
		try {
			await client.query(sql);
		} finally {
			await client.end();
		}
	}
}

/** PostgreSQL's one-byte internal type `"char"` (pg_class.relkind and the like). */
const CHAR_OID = 18;
const TEXT_OID = 25;

type QueryResultLike = { fields?: { dataTypeID: number }[] };

function charAsText<T>(result: T): T {
	for (const one of (Array.isArray(result) ? result : [result]) as QueryResultLike[]) {
		for (const field of one?.fields ?? []) if (field.dataTypeID === CHAR_OID) field.dataTypeID = TEXT_OID;
	}
	return result;
}

/**
 * The engine reads the catalogue (pg_class.relkind, pg_constraint.contype, …), whose `"char"`
 * columns @prisma/adapter-pg 7.10 has no column type for ("Column type 'char' could not be
 * deserialized"). pg already hands their values over as one-character strings, so the result is
 * labelled text. Only the schema engine's connections use this client, never the product's.
 */
class CharAsTextClient extends pg.Client {
	// pg's query() has many overloads; both the promise form (the adapter) and the callback form
	// (pg.Pool.query) get their results relabelled.
	override query(...args: unknown[]): never {
		const last = args.at(-1);
		const call = super.query as (...a: unknown[]) => unknown;
		if (typeof last === 'function') {
			const callback = last as (error: unknown, result: unknown) => void;
			return call.apply(this, [
				...args.slice(0, -1),
				(error: unknown, result: unknown) => callback(error, result && charAsText(result))
			]) as never;
		}
		const out = call.apply(this, args) as { then?: unknown } | undefined;
		return (typeof out?.then === 'function' ? (out as Promise<unknown>).then(charAsText) : out) as never;
	}
}
