import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/server/log/logger.ts';
import {
	CHECK_TIMEOUT_MS,
	CHECKER_IDLE_MS,
	ChildUploadChecker
} from '../../src/lib/server/media/upload-checker/child-checker.ts';
import { NODE_BUNDLES } from '../../src/lib/server/config/node-bundles.ts';
import {
	resolveCheckerEntry,
	UploadCheckerMissing
} from '../../src/lib/server/media/upload-checker/checker-process.ts';
import { UploadCheckFailed, type UploadCheck } from '../../src/lib/server/media/upload-checker/upload-check.ts';
import { readRssBytes } from '../helpers/built-web.ts';
import { ManualSchedule } from '../helpers/manual-schedule.ts';
import { isProcessAlive, PROJECT_ROOT, startTs, waitForOutput } from '../helpers/node-process.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { eventually } from './guest-harness.ts';
import { photosWithoutUsableFace, selfieJpeg } from './guest-photos.ts';

/**
 * The upload checker process, real: started on demand or by a warm-up, one photo at a time in
 * arrival order, ended after its idle time; a child killed or hung mid-check fails that one
 * check and the next check gets a fresh child; it never outlives its parent.
 */
describe('the upload checker process', () => {
	const tempDir = useTempDir('upload-checker-');
	const checkers: ChildUploadChecker[] = [];
	afterEach(async () => {
		for (const checker of checkers.splice(0)) await checker.stop();
	});

	let selfie: Buffer;
	let faceless: Buffer;
	beforeAll(async () => {
		selfie = await selfieJpeg(1280, 960);
		faceless = (await photosWithoutUsableFace())[0]!.photo;
	});

	function startChecker(): {
		checker: ChildUploadChecker;
		schedule: ManualSchedule;
		logs: { msg: string; level: number }[];
	} {
		const logs: { msg: string; level: number }[] = [];
		const logger = createLogger('web', 'info', {
			stdout: { write: (line: string) => void logs.push(JSON.parse(line)) }
		});
		const schedule = new ManualSchedule();
		const checker = new ChildUploadChecker({
			entry: resolveCheckerEntry(PROJECT_ROOT),
			logger,
			schedule: schedule.schedule
		});
		checkers.push(checker);
		return { checker, schedule, logs };
	}

	const summary = (check: UploadCheck) =>
		check.kind === 'passed' ? `passed ${check.width}×${check.height}` : `${check.kind}:${check.problem}`;
	const gone = (pid: number) =>
		eventually(
			async () => isProcessAlive(pid),
			(running) => !running,
			10_000
		);
	/** Lets the queued check reach the child (a few promise steps) before the test acts on it. */
	const handedOver = () => new Promise((resolve) => setImmediate(resolve));

	it('a warm-up starts it before any upload; it answers in order, one process for all, with the normalised photo and the face crop', async () => {
		const { checker, logs } = startChecker();
		checker.warmUp();
		await eventually(
			async () => logs.filter((l) => l.msg === 'upload checker ready').length,
			(n) => n === 1,
			30_000
		);
		const pid = checker.pid!;
		const order: string[] = [];
		const photos: [string, Buffer][] = [
			['good', selfie],
			['faceless', faceless],
			['text', Buffer.from('not a photo')],
			['good again', selfie]
		];
		const checks = await Promise.all(
			photos.map(([label, photo]) => checker.check(photo).then((check) => (order.push(label), check)))
		);
		expect(order).toEqual(photos.map(([label]) => label));
		expect(checks.map(summary)).toEqual([
			'passed 1280×960',
			'no_usable_face:no_face',
			'rejected:not_an_image',
			'passed 1280×960'
		]);
		const passed = checks[0]!;
		if (passed.kind !== 'passed') throw new Error('the good selfie was refused');
		expect(Buffer.isBuffer(passed.selfie) && Buffer.isBuffer(passed.faceCrop)).toBe(true);
		const crop = await sharp(passed.faceCrop).metadata();
		expect([crop.format, crop.width === crop.height]).toEqual(['jpeg', true]);
		expect(passed.face.width).toBeGreaterThan(100);
		expect(checker.pid).toBe(pid);
		expect(logs.filter((l) => l.msg === 'upload checker ready')).toHaveLength(1);
	}, 60_000);

	it('a pixel bomb (14000² PNG) is refused from its header: the checker process does not grow by its pixels', async () => {
		const { checker } = startChecker();
		expect((await checker.check(selfie)).kind).toBe('passed');
		const bomb = await sharp({ create: { width: 14000, height: 14000, channels: 3, background: '#000' } })
			.png({ compressionLevel: 9 })
			.toBuffer();
		const before = readRssBytes(checker.pid!);
		expect(await checker.check(bomb)).toMatchObject({ kind: 'rejected', problem: 'too_many_pixels' });
		// Decoding it would take 14000² × 3 ≈ 588 MB.
		expect(readRssBytes(checker.pid!) - before).toBeLessThan(150 * 1024 * 1024);
	}, 60_000);

	it('ends after its idle time (counted again from each upload and each Start), not before, and the next upload starts a fresh one', async () => {
		const { checker, schedule, logs } = startChecker();
		expect((await checker.check(selfie)).kind).toBe('passed');
		const first = checker.pid!;
		expect(schedule.pending(CHECKER_IDLE_MS)).toBe(1);
		// An upload before the idle time is up keeps the same process and restarts the idle time.
		expect((await checker.check(faceless)).kind).toBe('no_usable_face');
		expect([checker.pid, schedule.pending(CHECKER_IDLE_MS)]).toEqual([first, 1]);

		// A Start while it idles gives it a full idle time again: the old timer is replaced, not kept.
		checker.warmUp();
		await eventually(
			async () => schedule.created(CHECKER_IDLE_MS),
			(n) => n === 3
		);
		expect([checker.pid, schedule.pending(CHECKER_IDLE_MS)]).toEqual([first, 1]);

		expect(schedule.fire(CHECKER_IDLE_MS)).toBe(1);
		await gone(first);
		expect(checker.pid).toBeUndefined();
		expect(logs.map((l) => l.msg)).toContain('upload checker idle; ending it to hand its memory back');
		expect(logs.some((l) => /unexpectedly/.test(l.msg))).toBe(false);

		expect((await checker.check(selfie)).kind).toBe('passed');
		expect(checker.pid).not.toBe(first);
	}, 60_000);

	it('a child killed during a check fails that check (logged), and the next check gets a new child', async () => {
		const { checker, logs } = startChecker();
		await checker.check(selfie);
		const first = checker.pid!;
		process.kill(first, 'SIGSTOP');
		const failing = checker.check(selfie);
		await handedOver();
		process.kill(first, 'SIGKILL');
		const error = await failing.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(UploadCheckFailed);
		expect((error as UploadCheckFailed).reason).toBe('crashed');
		expect(
			logs.some(
				(l) => l.msg === 'upload checker ended unexpectedly; the next upload starts a new one' && l.level === 40
			)
		).toBe(true);

		expect((await checker.check(selfie)).kind).toBe('passed');
		expect(checker.pid).not.toBe(first);
	}, 60_000);

	it('a hung child times out: that check fails, the child is killed, the checks queued behind it run on a new child', async () => {
		const { checker, schedule, logs } = startChecker();
		await checker.check(selfie);
		const first = checker.pid!;
		process.kill(first, 'SIGSTOP');
		const hung = checker.check(selfie);
		const queued = checker.check(faceless);
		await handedOver();
		expect(schedule.fire(CHECK_TIMEOUT_MS)).toBe(1);
		const error = await hung.catch((e: unknown) => e);
		expect([(error as UploadCheckFailed).name, (error as UploadCheckFailed).reason]).toEqual([
			'UploadCheckFailed',
			'timed_out'
		]);
		await gone(first);
		expect(logs.some((l) => l.level === 50 && /did not answer within 15 s; killed/.test(l.msg))).toBe(true);
		expect(summary(await queued)).toBe('no_usable_face:no_face');
		expect(checker.pid).not.toBe(first);
	}, 60_000);

	it('exits when its parent is SIGKILLed (it sees the IPC channel close): no orphan', async () => {
		const parent = startTs('tests/helpers/upload-checker-parent.ts');
		const output = await waitForOutput(parent, (text) => text.includes('upload checker ready'), 30_000);
		const childPid = Number(/"pid":(\d+)[^\n]*upload checker ready/.exec(output)?.[1]);
		expect(isProcessAlive(childPid)).toBe(true);
		parent.kill('SIGKILL');
		await parent.finished;
		await gone(childPid);
	}, 60_000);

	it('stop() ends the child and lets a process with nothing else to do exit by itself', async () => {
		const parent = startTs('tests/helpers/upload-checker-parent.ts', { args: ['check-and-stop'] });
		const finished = await parent.finished;
		expect([finished.code, /stopped after (passed|no_usable_face)/.test(finished.stdout)]).toEqual([0, true]);
		expect(finished.stdout).toContain('"msg":"upload checker ended"');
	}, 60_000);

	it('a missing bundle is named at start, before any upload', () => {
		const root = tempDir();
		const bundle = path.join(root, NODE_BUNDLES.uploadChecker.bundle);
		expect(() => resolveCheckerEntry(root)).toThrow(UploadCheckerMissing);
		expect(() => resolveCheckerEntry(root)).toThrow(`${bundle} is missing (\`npm run build\` makes it`);
		mkdirSync(path.dirname(bundle), { recursive: true });
		writeFileSync(bundle, '');
		expect(resolveCheckerEntry(root)).toEqual({ script: bundle, execArgv: ['--enable-source-maps'] });
	});
});
