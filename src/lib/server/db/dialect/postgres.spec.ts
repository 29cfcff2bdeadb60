import { describe, expect, it } from 'vitest';
import { numberParams, postgresDialect } from './postgres.ts';

describe('the PostgreSQL dialect: the SQL it writes', () => {
	it('numbers ? parameters in order, leaving a ? inside quotes alone', () => {
		expect(numberParams('SELECT a FROM t WHERE b = ? AND c IN (?, ?)')).toBe(
			'SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)'
		);
		expect(numberParams(`SELECT '?' AS q, "wh?" FROM t WHERE x = ? AND y = 'it''s ?' AND z = ?`)).toBe(
			`SELECT '?' AS q, "wh?" FROM t WHERE x = $1 AND y = 'it''s ?' AND z = $2`
		);
		expect(postgresDialect.numberParams('UPDATE t SET a = ?')).toBe('UPDATE t SET a = $1');
	});

	it('reads ISO 8601 text as timestamptz', () => {
		expect(postgresDialect.instant('b.ts')).toBe('CAST(b.ts AS timestamptz)');
		expect(postgresDialect.instant('?')).toBe('CAST(? AS timestamptz)');
	});

	it('joins a group with string_agg in a stable order', () => {
		expect(postgresDialect.joinedText("status || '=' || n")).toBe(
			"string_agg(CAST(status || '=' || n AS text), ',' ORDER BY CAST(status || '=' || n AS text))"
		);
	});

	it('claims with FOR UPDATE SKIP LOCKED on the claimed table only, and locks read-then-write rows FOR UPDATE', () => {
		expect(postgresDialect.claimLock('j')).toBe('FOR UPDATE OF j SKIP LOCKED');
		expect(postgresDialect.lockRead('login_throttle')).toBe('FOR UPDATE OF login_throttle');
		expect(postgresDialect.lockKeySql).toBe('SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended(?, 0))');
	});

	it('names the engine, reads its version and finds tables in the current schema', () => {
		expect(postgresDialect.engine).toBe('PostgreSQL');
		expect(postgresDialect.versionSql).toBe(`SELECT current_setting('server_version') AS v`);
		expect(postgresDialect.tableByNameSql).toBe(
			'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?'
		);
	});
});
