import { describe, expect, it } from 'vitest';
import { useTestDb } from '../../../../../tests/helpers/test-db.ts';
import { Prisma } from '../generated/client.ts';
import { dialectOf, withDialect } from './dialect.ts';
import { lockRows, pickRowToClaim } from './row-locks.ts';
import { sqliteDialect } from './sqlite.ts';

describe('the SQLite dialect, on a real database file', () => {
	const openDb = useTestDb('dialect-sqlite-');

	it('is the dialect of the client openDatabase gives, and of its transaction client', async () => {
		const { db } = await openDb();
		expect(dialectOf(db)).toBe(sqliteDialect);
		expect(await db.$transaction(async (tx) => dialectOf(tx))).toBe(sqliteDialect);
	});

	it('each of two clients keeps its own mark', async () => {
		const [{ db: one }, { db: two }] = await Promise.all([openDb(), openDb()]);
		const other = { ...sqliteDialect, engine: 'other' };
		withDialect(two, other);
		expect(dialectOf(one)).toBe(sqliteDialect);
		expect(await two.$transaction(async (tx) => dialectOf(tx))).toBe(other);
	});

	it('refuses a client that was opened without a dialect', () => {
		expect(() => dialectOf({})).toThrow(/without a dialect/);
	});

	it('reads the engine version and finds tables by name', async () => {
		const { db } = await openDb();
		const [row] = await db.$queryRawUnsafe<{ v: string }[]>(sqliteDialect.versionSql);
		expect(row?.v).toMatch(/^3\.\d+\.\d+$/);
		expect(await db.$queryRawUnsafe(sqliteDialect.tableByNameSql, 'jobs')).toEqual([{ name: 'jobs' }]);
		expect(await db.$queryRawUnsafe(sqliteDialect.tableByNameSql, 'no_such_table')).toEqual([]);
	});

	it('adds no lock clause to claims or reads: BEGIN IMMEDIATE already holds the write lock', () => {
		expect(sqliteDialect.claimLock('j')).toBe('');
		expect(sqliteDialect.lockRead('j')).toBe('');
		expect(sqliteDialect.lockKeySql).toBeNull();
	});

	it('leaves ? parameters as SQLite takes them', () => {
		expect(sqliteDialect.numberParams('SELECT ? WHERE x = ?')).toBe('SELECT ? WHERE x = ?');
	});

	it('compares ISO 8601 texts as instants, whatever their spelling', async () => {
		const { db } = await openDb();
		const [row] = await db.$queryRawUnsafe<{ earlier: bigint; same: bigint }[]>(
			`SELECT ${sqliteDialect.instant('?')} < ${sqliteDialect.instant('?')} AS earlier, ${sqliteDialect.instant('?')} = ${sqliteDialect.instant('?')} AS same`,
			'2026-03-01T09:59:59.999Z',
			'2026-03-01 10:00:00',
			'2026-03-01T10:00:00Z',
			'2026-03-01T10:00:00.000Z'
		);
		expect(row).toEqual({ earlier: 1n, same: 1n });
	});

	it('joins a group of values into one text', async () => {
		const { db } = await openDb();
		const [row] = await db.$queryRawUnsafe<{ joined: string }[]>(
			`SELECT ${sqliteDialect.joinedText('v')} AS joined FROM (SELECT 'a' AS v UNION ALL SELECT 'b')`
		);
		expect(row?.joined.split(',').sort()).toEqual(['a', 'b']);
	});

	it('picks the first due row of a claim in the order asked, and null when none is due', async () => {
		const { db } = await openDb();
		for (const [id, state] of [
			[3, 'queued'],
			[1, 'sent'],
			[2, 'queued']
		] as const) {
			await db.lead.create({ data: { id, requestId: `r${id}`, createdAt: '2026-03-01T10:00:00.000Z', status: state } });
		}
		const pick = (status: string) =>
			db.$transaction((tx) =>
				pickRowToClaim(tx, { table: 'leads', alias: 'l', due: Prisma.sql`l.status = ${status}`, orderBy: 'l.id' })
			);
		expect(await pick('queued')).toBe(2);
		expect(await pick('contacted')).toBeNull();
	});

	it('locks rows with no statement of its own (BEGIN IMMEDIATE holds the write lock)', async () => {
		const { db } = await openDb();
		const queries: string[] = [];
		await db.$transaction(async (tx) => {
			const spy = new Proxy(tx, {
				get: (target, key, receiver) =>
					key === '$queryRaw'
						? (...args: unknown[]) => queries.push(String(args[0]))
						: Reflect.get(target, key, receiver)
			});
			await lockRows(spy, 'login_throttle', 'key', ['a', 'b']);
		});
		expect(queries).toEqual([]);
	});
});
