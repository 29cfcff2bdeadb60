import type { Dialect } from './dialect.ts';

/**
 * SQLite: `?` parameters as they are; julianday() reads ISO 8601 text as a day number. A write
 * transaction is BEGIN IMMEDIATE (db/immediate-adapter.ts), which holds the file's one write lock
 * from its first statement, so no other writer can act between a claim's read and its write and
 * row locks are not needed (SQLite has none).
 */
export const sqliteDialect: Dialect = {
	name: 'sqlite',
	engine: 'SQLite',
	versionSql: 'SELECT sqlite_version() AS v',
	tableByNameSql: `SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?`,
	numberParams: (sql) => sql,
	instant: (textExpr) => `julianday(${textExpr})`,
	joinedText: (textExpr) => `group_concat(${textExpr})`,
	claimLock: () => '',
	lockRead: () => '',
	lockKeySql: null,
	storage: 'file',
	sharedServer: false,
	lockWaitBlocksProcess: true,
	sizeSql: null
};
