import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/lib/server/db/client.ts';
import { pruneLogEntries } from '../../src/lib/server/log/log-retention.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { DAY, FakeClock, HOUR } from '../../src/lib/server/time/clock.ts';
import { pruneLogs } from '../../src/worker/tasks/log-prune.task.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { createTestDb } from '../helpers/test-db.ts';

function plant(db: Db, clock: FakeClock, count: number, message: string) {
	return db.logEntry.createMany({
		data: Array.from({ length: count }, (_, i) => ({
			at: clock.now().toISOString(),
			process: 'worker',
			level: 'warn',
			message: `${message} ${i}`
		}))
	});
}

describe('log_entries are capped by age and count', () => {
	const tempDir = useTempDir();
	const dbs: Db[] = [];
	afterEach(async () => {
		for (const db of dbs.splice(0)) await db.$disconnect();
	});

	async function setUp() {
		const { db } = await createTestDb(tempDir());
		dbs.push(db);
		return db;
	}

	it('removes rows older than the age limit and keeps the ones just younger', async () => {
		const db = await setUp();
		const clock = new FakeClock('2026-03-01T12:00:00.000Z');
		await plant(db, clock, 3, 'old');
		clock.advance(HOUR);
		await plant(db, clock, 2, 'young');
		clock.advance(14 * DAY - HOUR + 60_000);
		expect(await pruneLogEntries(db, clock, { keepRows: 5000, keepDays: 14 })).toEqual({ byAge: 3, byCount: 0 });
		expect((await db.logEntry.findMany()).map((row) => row.message)).toEqual(['young 0', 'young 1']);
	});

	it('keeps only the newest rows beyond the count limit', async () => {
		const db = await setUp();
		const clock = new FakeClock('2026-03-01T12:00:00.000Z');
		await plant(db, clock, 30, 'burst');
		expect(await pruneLogEntries(db, clock, { keepRows: 10, keepDays: 14 })).toEqual({ byAge: 0, byCount: 20 });
		const left = await db.logEntry.findMany({ orderBy: { id: 'asc' } });
		expect(left.map((row) => row.message)).toEqual(Array.from({ length: 10 }, (_, i) => `burst ${i + 20}`));
		expect(await pruneLogEntries(db, clock, { keepRows: 10, keepDays: 14 })).toEqual({ byAge: 0, byCount: 0 });
	});

	it('the worker task applies the default limits (5000 rows, 14 days)', async () => {
		const db = await setUp();
		const clock = new FakeClock('2026-03-01T12:00:00.000Z');
		await plant(db, clock, 10, 'fortnight ago');
		clock.advance(15 * DAY);
		await plant(db, clock, 5003, 'today');
		await pruneLogs({ db, clock, logger: silentLogger });
		expect(await db.logEntry.count()).toBe(5000);
		expect(await db.logEntry.count({ where: { message: { startsWith: 'fortnight' } } })).toBe(0);
		expect(await db.logEntry.count({ where: { message: { in: ['today 0', 'today 1', 'today 2'] } } })).toBe(0);
	});
});
