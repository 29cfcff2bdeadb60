import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, silentLogger } from '../../src/lib/server/log/logger.ts';
import { pauseForQuotaDay } from '../../src/lib/server/jobs/queue-pause.ts';
import { endMaintenance, startMaintenance } from '../../src/lib/server/settings/maintenance.ts';
import { nextPacificMidnight } from '../../src/lib/server/spend/provider-quota-day.ts';
import { FakeClock, MINUTE, SECOND, systemClock } from '../../src/lib/server/time/clock.ts';
import type { JobLoop } from '../../src/worker/queue/job-loop.ts';
import { createJobLoop } from '../../src/worker/queue/start-queue.ts';
import { enforceJobDeadlines } from '../../src/worker/tasks/deadlines.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { createGenerationWorld, waitForJobStatus, type GenerationWorld } from './generation-harness.ts';

const HOUR = 60 * MINUTE;
const PAUSED_TEXT = /Your pack is delayed: drawing is paused/;

/** Pauses hold the queue: the hard deadline counts only the time the queue was running. */
describe('pauses hold the queue (fake clock, real emulator)', () => {
	const tempDir = useTempDir('gen-pauses-');
	let world: GenerationWorld | undefined;
	let loop: JobLoop | undefined;
	afterEach(async () => {
		await loop?.stop(1000);
		loop = undefined;
		await world?.close();
	});

	const botTexts = async (guestId: number) => (await world!.emulator.control.chatMessages(guestId)).filter((m) => m.from_bot).map((m) => m.text ?? '');

	it('a 3-hour pause with 10 queued jobs: none fails, each guest told once, drained oldest first after resume', async () => {
		world = await createGenerationWorld(tempDir());
		const clock = new FakeClock(new Date().toISOString());
		const deps = { db: world.db, clock, logger: silentLogger, api: world.api, delayNoticeMs: 5 * MINUTE, hardDeadlineMs: 20 * MINUTE };
		const guests: number[] = [];
		const jobs: number[] = [];
		for (let i = 0; i < 10; i++) {
			const guest = await world.emulator.control.createUser({ first_name: `Guest${i}`, language_code: 'en' });
			await world.emulator.control.sendUserMessage({ user_id: guest.id, text: '/start' });
			await world.db.user.create({ data: { telegramUserId: BigInt(guest.id), firstName: `Guest${i}`, consentedAt: clock.now().toISOString(), createdAt: clock.now().toISOString() } });
			guests.push(guest.id);
			jobs.push(await world.queueJob({ createdAt: clock.now(), guestId: guest.id }));
			clock.advance(SECOND);
		}
		await startMaintenance(world.db, clock, 'admin', 'venue closed for the speeches');
		clock.advance(30 * SECOND);
		expect(await enforceJobDeadlines(deps)).toEqual({ noticed: [], failed: [] });
		clock.advance(MINUTE);
		expect((await enforceJobDeadlines(deps)).noticed).toEqual(jobs);
		for (let step = 0; step < 18; step++) {
			clock.advance(10 * MINUTE);
			expect(await enforceJobDeadlines(deps)).toEqual({ noticed: [], failed: [] });
		}
		await endMaintenance(world.db);
		expect(await enforceJobDeadlines(deps)).toEqual({ noticed: [], failed: [] });
		clock.advance(5 * MINUTE);
		expect(await enforceJobDeadlines(deps)).toEqual({ noticed: [], failed: [] });
		const pauses = await world.db.queuePause.findMany();
		expect(pauses).toHaveLength(1);
		expect(pauses[0]).toMatchObject({ source: 'admin', reason: 'venue closed for the speeches' });
		expect(pauses[0]?.endedAt).not.toBeNull();

		// After resume the queue drains oldest first: the first claim is the oldest job, and it is delivered.
		loop = await createJobLoop({ config: world.config({ WORKER_SLOTS: '1' }), db: world.db, clock: systemClock, logger: createLogger('test', 'silent'), api: world.api, workerId: 'w1' });
		loop.start();
		expect(await waitForJobStatus(world.db, jobs[0]!, ['done', 'failed'], 180_000)).toBe('done');
		await loop.stop(1000);
		loop = undefined;
		const later = await world.db.job.findMany({ where: { jobId: { in: jobs.slice(1) } }, select: { status: true } });
		expect(later.every((job) => job.status !== 'failed')).toBe(true);
		for (const [i, guestId] of guests.entries()) {
			const said = await botTexts(guestId);
			expect(said.filter((t) => PAUSED_TEXT.test(t))).toHaveLength(1);
			expect(said.filter((t) => /took too long|taking a little longer|could not/.test(t))).toHaveLength(0);
			if (i === 0) expect(said.some((t) => t.includes('t.me/addstickers/'))).toBe(true);
		}
	}, 240_000);

	it('a quota pause across Pacific midnight: counted until midnight even when nobody looked, then the deadline runs on', async () => {
		world = await createGenerationWorld(tempDir());
		// 1 March: Pacific is UTC−8, so its midnight is 08:00 UTC.
		const clock = new FakeClock('2026-03-01T07:27:00.000Z');
		const deps = { db: world.db, clock, logger: silentLogger, api: world.api, delayNoticeMs: 5 * MINUTE, hardDeadlineMs: 20 * MINUTE };
		const jobId = await world.queueJob({ createdAt: clock.now() });
		clock.advance(3 * MINUTE);
		const until = nextPacificMidnight(clock.now());
		expect(until.toISOString()).toBe('2026-03-01T08:00:00.000Z');
		expect(await pauseForQuotaDay(world.db, clock, until, 'RESOURCE_EXHAUSTED per day')).toBe(true);
		expect(await enforceJobDeadlines(deps)).toEqual({ noticed: [], failed: [] });
		clock.advance(2 * MINUTE);
		expect(await enforceJobDeadlines(deps)).toEqual({ noticed: [jobId], failed: [] });
		// The worker was down across midnight; it looks again at 08:16 UTC: 3 + 16 = 19 min of running queue.
		clock.set(new Date('2026-03-01T08:16:00.000Z'));
		expect(await enforceJobDeadlines(deps)).toEqual({ noticed: [], failed: [] });
		expect((await world.db.queuePause.findFirstOrThrow()).endedAt).toBe('2026-03-01T08:00:00.000Z');
		clock.set(new Date('2026-03-01T08:17:01.000Z'));
		expect(await enforceJobDeadlines(deps)).toEqual({ noticed: [], failed: [jobId] });
		const said = await botTexts(world.guestId);
		expect(said.filter((t) => PAUSED_TEXT.test(t))).toHaveLength(1);
		expect(said.filter((t) => t.includes('took too long'))).toHaveLength(1);
	});
});
