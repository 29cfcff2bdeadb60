import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/lib/server/db/client.ts';
import { migrateSafely } from '../../src/lib/server/db/migrations/safe-migrate.ts';
import { readJobSnapshot, writeJobSnapshot } from '../../src/lib/server/jobs/job-snapshot.repository.ts';
import { defaultOutfitSnapshot } from '../../src/lib/server/outfits/default-outfit.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import { PROJECT_ROOT } from '../helpers/node-process.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

describe('job snapshots (job_snapshots)', () => {
	const tempDir = useTempDir('job-snapshot-');
	let db: Db | undefined;
	afterEach(async () => db?.$disconnect());

	async function open(): Promise<Db> {
		const dbPath = path.join(tempDir(), 'app.db');
		await migrateSafely({
			dbPath,
			migrationsDir: path.join(PROJECT_ROOT, 'prisma', 'migrations'),
			clock: new FakeClock(new Date('2026-12-01T10:00:00Z'))
		});
		db = openDatabase(dbPath);
		return db;
	}

	it('keeps the outfit exactly as written, and says null for a job without one', async () => {
		const db = await open();
		const clock = new FakeClock(new Date('2026-12-01T10:00:00Z'));
		const outfit = {
			...defaultOutfitSnapshot('chef'),
			id: 'acme-chef',
			prompt: 'an Acme chef jacket with a blue logo'
		};
		await writeJobSnapshot(db, clock, { jobId: 7, eventId: 1, catalogueVersion: 3, outfit });
		expect(await readJobSnapshot(db, 7)).toEqual({ jobId: 7, eventId: 1, catalogueVersion: 3, outfit });
		expect((await db.jobSnapshot.findUniqueOrThrow({ where: { jobId: 7 } })).createdAt).toBe(
			'2026-12-01T10:00:00.000Z'
		);
		expect(await readJobSnapshot(db, 8)).toBeNull();
	});

	it('refuses to store an outfit that does not validate, and reads an unreadable row as none', async () => {
		const db = await open();
		const clock = new FakeClock(new Date('2026-12-01T10:00:00Z'));
		await expect(
			writeJobSnapshot(db, clock, {
				jobId: 9,
				eventId: 1,
				catalogueVersion: 1,
				outfit: { ...defaultOutfitSnapshot('chef'), id: 'an-id-far-too-long-for-callbacks' }
			})
		).rejects.toThrow(/at most 16 characters/);
		expect(await db.jobSnapshot.count()).toBe(0);
		await db.jobSnapshot.create({
			data: { jobId: 10, eventId: 1, catalogueVersion: 1, outfitJson: '{"id":', createdAt: clock.now().toISOString() }
		});
		expect(await readJobSnapshot(db, 10)).toBeNull();
	});
});
