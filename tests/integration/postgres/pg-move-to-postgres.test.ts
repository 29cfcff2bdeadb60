import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestDb } from '../../helpers/test-db.ts';
import { runTs } from '../../helpers/node-process.ts';
import { usePgTestDb } from '../../helpers/pg-test-db.ts';
import { useTempDir } from '../../helpers/temp-dir.ts';
import { insertGuest } from '../lifecycle-fixtures.ts';

describe('npm run db:move-to-postgres', () => {
	const target = usePgTestDb();
	const tempDir = useTempDir('kiosk-move-');

	it('copies a SQLite install with counts checked, keeps values, resets sequences and refuses a second run', async () => {
		const dir = tempDir();
		const sqlite = await createTestDb(dir);
		const { jobId } = await insertGuest(sqlite.db, { id: 9_007_199_254_740_993n, at: '2027-01-01T10:00:00.000Z' });
		await insertGuest(sqlite.db, { id: 42n, at: '2027-01-02T10:00:00.000Z', jobStatus: 'failed' });
		await sqlite.db.$disconnect();
		const env = { DB_PATH: sqlite.dbPath, DATA_DIR: dir, DATABASE_URL: target().url };

		const move = await runTs('scripts/move-to-postgres.ts', { env });
		expect(move.stderr).toBe('');
		expect(move.code).toBe(0);
		expect(move.stdout).toMatch(/users\s+2\s+2/);
		expect(move.stdout).toContain('move ok');
		const { db } = target();
		const guest = await db.user.findUniqueOrThrow({ where: { telegramUserId: 9_007_199_254_740_993n } });
		expect(guest).toMatchObject({ createdAt: '2027-01-01T10:00:00.000Z', packName: null, firstName: 'Guest' });
		const job = await db.job.findUniqueOrThrow({ where: { jobId: jobId! } });
		expect(job.status).toBe('done');
		const next = await insertGuest(db, { id: 77n, at: '2027-01-03T10:00:00.000Z' });
		expect(next.jobId).toBeGreaterThan(jobId!);

		const again = await runTs('scripts/move-to-postgres.ts', { env });
		expect(again.code).toBe(1);
		expect(again.stderr).toContain('move refused: the target already holds data');
	}, 120_000);

	it('refuses a SQLite target and a missing file', async () => {
		const dir = tempDir();
		const noTarget = await runTs('scripts/move-to-postgres.ts', {
			env: { DB_PATH: path.join(dir, 'app.db'), DATA_DIR: dir, DATABASE_URL: '' }
		});
		expect(noTarget.code).toBe(1);
		expect(noTarget.stderr).toContain('move refused: set DATABASE_URL');
		const missing = await runTs('scripts/move-to-postgres.ts', {
			env: { DB_PATH: path.join(dir, 'none.db'), DATA_DIR: dir, DATABASE_URL: target().url }
		});
		expect(missing.code).toBe(1);
		expect(missing.stderr).toContain('move refused: no SQLite database at');
	}, 60_000);
});
