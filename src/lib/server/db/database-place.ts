import type { DatabaseTarget } from '../config/config.ts';
import type { Dialect } from './dialect/dialect.ts';
import { postgresDialect } from './dialect/postgres.ts';
import { sqliteDialect } from './dialect/sqlite.ts';
import { describeTarget } from './postgres/connect-error.ts';

/**
 * Where the configured database lives, for code that handles it from outside a query (backups,
 * the Health page, the log sink's own connection): a file on this host, or a server. Callers ask
 * "is it a file I can copy?", never which engine it is; the storage is the dialect's (`storage`).
 */
export type DatabasePlace =
	| { storage: 'file'; path: string }
	/** `where`: host:port/database, never the password. */
	| { storage: 'server'; url: string; where: string };

export function placeOf(target: DatabaseTarget): DatabasePlace {
	if (target.engine === 'postgresql') {
		const { hostPort, database } = describeTarget(target.url);
		return { storage: 'server', url: target.url, where: `${hostPort}/${database}` };
	}
	return { storage: 'file', path: target.path };
}

/** The dialect the configured database will be opened with (the same one `dialectOf(db)` gives then). */
export function dialectFor(target: DatabaseTarget): Dialect {
	return target.engine === 'postgresql' ? postgresDialect : sqliteDialect;
}
