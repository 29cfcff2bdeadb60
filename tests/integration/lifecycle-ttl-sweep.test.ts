import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, promises as fsp, readdirSync, utimesSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { readSetting } from '../../src/lib/server/settings/settings.repository.ts';
import { clearStaleAppearance } from '../../src/lib/server/lifecycle/appearance.ts';
import { LocalFileStore } from '../../src/lib/server/files/local-file-store.ts';
import { sweepCutoffMs, sweepExpiredFiles } from '../../src/lib/server/lifecycle/file-sweep.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { FakeClock, HOUR, MINUTE } from '../../src/lib/server/time/clock.ts';
import { runTtlSweep } from '../../src/worker/tasks/ttl-sweep.task.ts';
import { createTestDb } from '../helpers/test-db.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { insertGuest, writeFileAt } from './lifecycle-fixtures.ts';
import { localFileStore } from '../helpers/file-store.ts';

const T0 = '2026-12-01T10:00:00.000Z';
const ago = (clock: FakeClock, ms: number) => new Date(clock.now().getTime() - ms);

describe('TTL sweep of photo and drawing files', () => {
	const tempDir = useTempDir('kiosk-sweep-');

	it('cutoff is the TTL minus the one-hour interval, never below half an hour', () => {
		expect(sweepCutoffMs(72)).toBe(71 * HOUR);
		expect(sweepCutoffMs(2)).toBe(1 * HOUR);
		expect(sweepCutoffMs(1)).toBe(HOUR / 2);
	});

	it('deletes each file by its own age, keeps fresh ones, removes emptied folders bottom-up but keeps the roots', async () => {
		const dataDir = tempDir();
		const clock = new FakeClock(T0);
		const oldSelfie = writeFileAt(path.join(dataDir, 'sessions/tokA/selfie_1.jpg'), ago(clock, 3 * HOUR));
		const oldSticker = writeFileAt(path.join(dataDir, 'sessions/tokA/stickers/sticker_1.png'), ago(clock, 3 * HOUR));
		// A retry wrote a new file into an old folder: the new file stays, the old selfie still goes.
		const oldRetrySelfie = writeFileAt(path.join(dataDir, 'sessions/tokB/selfie_2.jpg'), ago(clock, 3 * HOUR));
		const freshSheet = writeFileAt(path.join(dataDir, 'sessions/tokB/sheet_1.png'), ago(clock, 10 * MINUTE));
		const oldDebug = writeFileAt(path.join(dataDir, 'debug_sheets/job1_sheet1_try1.png'), ago(clock, 3 * HOUR));
		const freshDebug = writeFileAt(path.join(dataDir, 'debug_sheets/job2_anchor.png'), ago(clock, 30 * MINUTE));
		const outside = writeFileAt(path.join(dataDir, 'layout_guide_4x3_1.png'), ago(clock, 100 * HOUR));

		const result = await sweepExpiredFiles({
			fileStore: localFileStore(dataDir),
			ttlHours: 2,
			clock,
			logger: silentLogger
		});

		expect(result).toEqual({ deletedFiles: 4, removedDirs: 2, failures: 0 });
		for (const gone of [oldSelfie, oldSticker, oldRetrySelfie, oldDebug]) expect(existsSync(gone)).toBe(false);
		for (const kept of [freshSheet, freshDebug, outside]) expect(existsSync(kept)).toBe(true);
		expect(existsSync(path.join(dataDir, 'sessions/tokA'))).toBe(false);
		expect(readdirSync(path.join(dataDir, 'sessions'))).toEqual(['tokB']);
		expect(existsSync(path.join(dataDir, 'debug_sheets'))).toBe(true);
	});

	it('leaves a brand-new empty folder alone (an upload may be about to write into it)', async () => {
		const dataDir = tempDir();
		mkdirSync(path.join(dataDir, 'sessions/tokNew'), { recursive: true });
		const clock = new FakeClock(new Date());
		await sweepExpiredFiles({ fileStore: localFileStore(dataDir), ttlHours: 1, clock, logger: silentLogger });
		expect(existsSync(path.join(dataDir, 'sessions/tokNew'))).toBe(true);
	});

	it('removes an empty folder untouched for the cutoff (an upload that never wrote), not only the ones it emptied', async () => {
		const dataDir = tempDir();
		const clock = new FakeClock(T0);
		const stale = path.join(dataDir, 'sessions/tokStale/stickers');
		mkdirSync(stale, { recursive: true });
		for (const dir of [stale, path.dirname(stale)]) utimesSync(dir, ago(clock, 3 * HOUR), ago(clock, 3 * HOUR));
		const result = await sweepExpiredFiles({
			fileStore: localFileStore(dataDir),
			ttlHours: 2,
			clock,
			logger: silentLogger
		});
		expect(result).toEqual({ deletedFiles: 0, removedDirs: 2, failures: 0 });
		expect(readdirSync(path.join(dataDir, 'sessions'))).toEqual([]);
	});

	it('a folder the store cannot tidy is counted, never thrown', async () => {
		const dataDir = tempDir();
		const clock = new FakeClock(T0);
		const old = writeFileAt(path.join(dataDir, 'sessions/tokA/selfie.jpg'), ago(clock, 3 * HOUR));
		const refusing = Object.assign(new LocalFileStore(dataDir), {
			removeEmptyFolders: () => Promise.reject(Object.assign(new Error('EACCES'), { code: 'EACCES' }))
		});
		const result = await sweepExpiredFiles({ fileStore: refusing, ttlHours: 2, clock, logger: silentLogger });
		expect(result).toEqual({ deletedFiles: 1, removedDirs: 0, failures: 2 });
		expect(existsSync(old)).toBe(false);
	});

	it.each([1, 2, 24, 72])('with a pass every hour a file never outlives PHOTO_TTL_HOURS=%i', async (ttlHours) => {
		const dataDir = tempDir();
		const clock = new FakeClock(T0);
		// The file appears 17 minutes after a pass: the worst phase is covered by scanning every pass.
		const bornAt = clock.now().getTime() + 17 * MINUTE;
		const file = path.join(dataDir, 'sessions/tok/selfie.jpg');
		writeFileAt(file, new Date(bornAt));
		let goneAtAge: number | null = null;
		for (let pass = 1; pass <= ttlHours + 2 && goneAtAge === null; pass++) {
			clock.set(new Date(Date.parse(T0) + pass * HOUR));
			await sweepExpiredFiles({ fileStore: localFileStore(dataDir), ttlHours, clock, logger: silentLogger });
			const age = clock.now().getTime() - bornAt;
			if (!existsSync(file)) goneAtAge = age;
			else expect(age).toBeLessThan(ttlHours * HOUR); // still there only while younger than the TTL
		}
		expect(goneAtAge).not.toBeNull();
		expect(goneAtAge!).toBeLessThanOrEqual(ttlHours * HOUR);
		expect(goneAtAge!).toBeGreaterThanOrEqual(sweepCutoffMs(ttlHours));
	});
});

describe('sweep robustness', () => {
	const tempDir = useTempDir('kiosk-sweep-');
	const immutable: string[] = [];
	afterEach(() => {
		for (const dir of immutable.splice(0)) execFileSync('chattr', ['-i', dir]);
	});

	it('a file even root cannot delete (immutable folder) is logged and retried next pass; the rest of the pass goes on', async () => {
		const dataDir = tempDir();
		const clock = new FakeClock(T0);
		const stuck = writeFileAt(path.join(dataDir, 'sessions/tokStuck/selfie.jpg'), ago(clock, 5 * HOUR));
		const other = writeFileAt(path.join(dataDir, 'sessions/tokOther/selfie.jpg'), ago(clock, 5 * HOUR));
		const debug = writeFileAt(path.join(dataDir, 'debug_sheets/job9_anchor.png'), ago(clock, 5 * HOUR));
		try {
			execFileSync('chattr', ['+i', path.dirname(stuck)]);
			immutable.push(path.dirname(stuck));
		} catch {
			return expect.fail('chattr +i is not supported here; the injected-failure test below covers the rule');
		}
		const lines: string[] = [];
		const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });

		const first = await sweepExpiredFiles({ fileStore: localFileStore(dataDir), ttlHours: 1, clock, logger });
		expect(first.failures).toBe(1);
		expect(existsSync(stuck)).toBe(true);
		expect(existsSync(other)).toBe(false);
		expect(existsSync(debug)).toBe(false);
		expect(lines.join('')).toContain('could not delete an expired file; will retry next pass');
		expect(lines.join('')).toContain('sessions/tokStuck/selfie.jpg');

		execFileSync('chattr', ['-i', path.dirname(stuck)]);
		immutable.pop();
		clock.advance(HOUR);
		const second = await sweepExpiredFiles({ fileStore: localFileStore(dataDir), ttlHours: 1, clock, logger });
		expect(second.failures).toBe(0);
		expect(existsSync(stuck)).toBe(false);
		expect(existsSync(path.join(dataDir, 'sessions/tokStuck'))).toBe(false);
	});

	it('failing file operations (listing, deleting) are counted, never thrown', async () => {
		const dataDir = tempDir();
		const clock = new FakeClock(T0);
		const files = ['a', 'b', 'c'].map((n) =>
			writeFileAt(path.join(dataDir, `sessions/tok${n}/selfie.jpg`), ago(clock, 5 * HOUR))
		);
		writeFileAt(path.join(dataDir, 'debug_sheets/sub/job1_x.png'), ago(clock, 5 * HOUR));
		// The store as a disk that fails: one delete (an I/O error) and the listing of debug_sheets/.
		const disk = new LocalFileStore(dataDir);
		const failing = Object.assign(new LocalFileStore(dataDir), {
			delete: (key: string) =>
				key.includes('tokb')
					? Promise.reject(Object.assign(new Error('EIO: i/o error'), { code: 'EIO' }))
					: disk.delete(key),
			list: (prefix: string) =>
				prefix.startsWith('debug_sheets')
					? Promise.reject(Object.assign(new Error('EACCES'), { code: 'EACCES' }))
					: disk.list(prefix)
		});
		const result = await sweepExpiredFiles({ fileStore: failing, ttlHours: 1, clock, logger: silentLogger });
		expect(result.failures).toBe(2);
		expect(existsSync(files[0]!)).toBe(false);
		expect(existsSync(files[1]!)).toBe(true);
		expect(existsSync(files[2]!)).toBe(false);
		await fsp.access(path.join(dataDir, 'debug_sheets/sub/job1_x.png'));
	});
});

describe('stale appearance cards and last_sweep_at', () => {
	const tempDir = useTempDir('kiosk-sweep-');

	it('clears finished jobs and active jobs queued over 15 minutes ago, keeps young active ones', async () => {
		const { db } = await createTestDb(tempDir());
		const clock = new FakeClock(T0);
		const at = (msAgo: number) => ago(clock, msAgo).toISOString();
		const done = await insertGuest(db, { id: 1001n, at: at(2 * MINUTE), jobStatus: 'done' });
		const failed = await insertGuest(db, { id: 1002n, at: at(2 * MINUTE), jobStatus: 'failed' });
		const oldActive = await insertGuest(db, { id: 1003n, at: at(16 * MINUTE), jobStatus: 'processing' });
		const youngActive = await insertGuest(db, { id: 1004n, at: at(14 * MINUTE), jobStatus: 'queued' });

		expect(await clearStaleAppearance(db, clock)).toBe(3);
		const card = async (jobId: number | null) =>
			(await db.job.findUniqueOrThrow({ where: { jobId: jobId! } })).appearanceJson;
		expect(await card(done.jobId)).toBeNull();
		expect(await card(failed.jobId)).toBeNull();
		expect(await card(oldActive.jobId)).toBeNull();
		expect(await card(youngActive.jobId)).toBe('{"hair":"brown"}');
		clock.advance(2 * MINUTE);
		expect(await clearStaleAppearance(db, clock)).toBe(1);
		await db.$disconnect();
	});

	it('the hourly task sweeps files, clears cards and records last_sweep_at for the console', async () => {
		const dataDir = tempDir();
		const { db } = await createTestDb(dataDir);
		const clock = new FakeClock(T0);
		await insertGuest(db, { id: 2001n, at: T0, jobStatus: 'done' });
		const old = writeFileAt(path.join(dataDir, 'sessions/tok_2001/selfie.jpg'), ago(clock, 80 * HOUR));
		await runTtlSweep({ db, clock, logger: silentLogger, fileStore: localFileStore(dataDir), ttlHours: 72 });
		expect(existsSync(old)).toBe(false);
		expect(await readSetting(db, 'last_sweep_at')).toBe(T0);
		expect((await db.job.findFirstOrThrow()).appearanceJson).toBeNull();
		await db.$disconnect();
	});
});
