import { describe, expect, it } from 'vitest';
import { readSetting } from '../../src/lib/server/settings/settings.repository.ts';
import { S3FileStore } from '../../src/lib/server/files/s3-file-store.ts';
import { sweepExpiredFiles } from '../../src/lib/server/lifecycle/file-sweep.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { FakeClock, HOUR } from '../../src/lib/server/time/clock.ts';
import { runTtlSweep } from '../../src/worker/tasks/ttl-sweep.task.ts';
import { bucketStore, useS3Server, type S3TestServer } from '../helpers/s3-server.ts';
import { useTestDb } from '../helpers/test-db.ts';

// The TTL sweep on a bucket: an object's age is its LastModified against the injected clock, with
// the same cutoff as on DATA_DIR (PHOTO_TTL_HOURS minus the hourly interval: 71 h for 72 h).

const T0 = new Date('2026-06-01T12:00:00.000Z');
const before = (ms: number) => new Date(T0.getTime() - ms);

async function putAged(server: S3TestServer, store: S3FileStore, files: Record<string, Date>): Promise<void> {
	for (const [key, modifiedAt] of Object.entries(files)) {
		await store.put(key, `bytes of ${key}`);
		server.ageObject(key, modifiedAt);
	}
}

describe('the TTL sweep on an S3 bucket', () => {
	const s3Server = useS3Server();
	const openDb = useTestDb('file-store-sweep-');

	it('deletes objects under sessions/ and debug_sheets/ older than the cutoff by LastModified; newer ones and other prefixes stay', async () => {
		const server = await s3Server();
		const store = bucketStore(server);
		await putAged(server, store, {
			'sessions/old/selfie_ab.jpg': before(80 * HOUR),
			'sessions/old/stickers/sticker_1.png': before(71 * HOUR + 5_000),
			'sessions/old/face_crop.jpg': before(71 * HOUR - 60_000), // a newer file in an old session stays
			'sessions/new/face_crop.jpg': before(HOUR),
			'debug_sheets/job4_anchor.png': before(72 * HOUR),
			'debug_sheets/job5_anchor.png': before(70 * HOUR),
			'catalogues/event-1-v1.jpg': before(1000 * HOUR),
			'outfit-previews/0123456789abcdef0123456789abcdef.png': before(1000 * HOUR)
		});

		const result = await sweepExpiredFiles({
			fileStore: store,
			ttlHours: 72,
			clock: new FakeClock(T0),
			logger: silentLogger
		});

		expect(result).toEqual({ deletedFiles: 3, removedDirs: 0, failures: 0 });
		expect((await store.list('')).map((f) => f.key)).toEqual([
			'catalogues/event-1-v1.jpg',
			'debug_sheets/job5_anchor.png',
			'outfit-previews/0123456789abcdef0123456789abcdef.png',
			'sessions/new/face_crop.jpg',
			'sessions/old/face_crop.jpg'
		]);
	});

	it('the hourly task sweeps the bucket it is given, then records last_sweep_at', async () => {
		const server = await s3Server();
		const store = bucketStore(server);
		const { db } = await openDb();
		await putAged(server, store, {
			'sessions/tok/selfie_ab.jpg': before(80 * HOUR),
			'sessions/tok/face_crop.jpg': before(2 * HOUR)
		});

		await runTtlSweep({ db, clock: new FakeClock(T0), logger: silentLogger, fileStore: store, ttlHours: 72 });

		expect((await store.list('sessions/')).map((f) => f.key)).toEqual(['sessions/tok/face_crop.jpg']);
		expect(await readSetting(db, 'last_sweep_at')).toBe(T0.toISOString());
	});

	it('a failing delete is counted and the pass goes on', async () => {
		const server = await s3Server();
		const store = bucketStore(server);
		await putAged(server, store, {
			'sessions/a/selfie_1.jpg': before(80 * HOUR),
			'sessions/b/selfie_2.jpg': before(80 * HOUR)
		});
		const refusing = Object.assign(Object.create(store) as S3FileStore, {
			delete: (key: string) =>
				key.startsWith('sessions/a/') ? Promise.reject(new Error('AccessDenied')) : store.delete(key)
		});
		const result = await sweepExpiredFiles({
			fileStore: refusing,
			ttlHours: 72,
			clock: new FakeClock(T0),
			logger: silentLogger
		});
		expect(result).toEqual({ deletedFiles: 1, removedDirs: 0, failures: 1 });
		expect((await store.list('sessions/')).map((f) => f.key)).toEqual(['sessions/a/selfie_1.jpg']);
	});
});
