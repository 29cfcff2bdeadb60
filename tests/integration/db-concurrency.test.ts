import { availableParallelism } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { BUSY_TIMEOUT_MS } from '../../src/lib/server/db/client.ts';
import { migrateSafely } from '../../src/lib/server/db/migrations/safe-migrate.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { PROJECT_ROOT, runTs } from '../helpers/node-process.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

describe('web and worker writing the same SQLite file at once', () => {
	const tempDir = useTempDir();

	it('processes above the core count doing thousands of read-then-write transactions see zero SQLITE_BUSY and lose no update', async () => {
		const dbPath = path.join(tempDir(), 'app.db');
		await migrateSafely({ dbPath, migrationsDir: path.join(PROJECT_ROOT, 'prisma', 'migrations'), clock: systemClock });
		const seed = new Database(dbPath);
		seed
			.prepare(`INSERT INTO settings (key, value, updated_at) VALUES ('counter', '0', '2026-01-01T00:00:00.000Z')`)
			.run();
		seed.close();

		const processes = availableParallelism() + 1;
		const perProcess = 1000;
		const results = await Promise.all(
			Array.from({ length: processes }, (_, i) =>
				runTs('tests/helpers/write-load.ts', { args: [dbPath, String(perProcess), `p${i}`] })
			)
		);
		const summaries = results.map((r) => {
			expect(r.code, r.stderr).toBe(0);
			return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as {
				done: number;
				busy: number;
				otherErrors: number;
				p99Ms: number;
			};
		});
		for (const s of summaries) {
			expect(s).toMatchObject({ done: perProcess, busy: 0, otherErrors: 0 });
			expect(s.p99Ms).toBeLessThan(BUSY_TIMEOUT_MS);
		}
		const check = new Database(dbPath, { readonly: true });
		expect(check.prepare(`SELECT value FROM settings WHERE key = 'counter'`).pluck().get()).toBe(
			String(processes * perProcess)
		);
		expect(check.prepare(`SELECT count(*) FROM audit_log`).pluck().get()).toBe(processes * perProcess);
		expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
		check.close();
	}, 180_000);
});
