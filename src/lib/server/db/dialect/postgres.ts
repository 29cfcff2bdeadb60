import type { Dialect } from './dialect.ts';

/**
 * PostgreSQL: parameters are numbered ($1, $2, …); ISO 8601 text casts to timestamptz. Transactions
 * run at READ COMMITTED, so a read that decides a write locks its rows (FOR UPDATE), and a claim
 * skips rows another worker is claiming (SKIP LOCKED) instead of waiting for them: of N workers
 * racing for the oldest due row, each gets a different one.
 */
export const postgresDialect: Dialect = {
	name: 'postgresql',
	engine: 'PostgreSQL',
	versionSql: `SELECT current_setting('server_version') AS v`,
	tableByNameSql: `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?`,
	numberParams,
	instant: (textExpr) => `CAST(${textExpr} AS timestamptz)`,
	joinedText: (textExpr) => `string_agg(CAST(${textExpr} AS text), ',' ORDER BY CAST(${textExpr} AS text))`,
	claimLock: (alias) => `FOR UPDATE OF ${alias} SKIP LOCKED`,
	lockRead: (alias) => `FOR UPDATE OF ${alias}`,
	// A transaction-level advisory lock on the key's 64-bit hash: a collision only serialises two
	// unrelated keys a moment longer.
	lockKeySql: 'SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended(?, 0))',
	storage: 'server',
	sharedServer: true,
	lockWaitBlocksProcess: false,
	sizeSql: 'SELECT pg_database_size(current_database()) AS bytes'
};

/**
 * `?` → `$1`, `$2`, … in order. A `?` inside a quoted string or identifier is text, not a
 * parameter (our statements quote with '…' and "…"; a doubled quote inside stays inside).
 */
export function numberParams(sql: string): string {
	let out = '';
	let quote: string | null = null;
	let n = 0;
	for (const ch of sql) {
		if (quote) {
			if (ch === quote) quote = null;
		} else if (ch === "'" || ch === '"') {
			quote = ch;
		} else if (ch === '?') {
			out += `$${++n}`;
			continue;
		}
		out += ch;
	}
	return out;
}
