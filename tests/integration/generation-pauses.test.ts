import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import {
	holdForQuotaMinute,
	kioskPauseView,
	pauseForQuotaDay,
	readKioskPause
} from '../../src/lib/server/jobs/queue-pause.ts';
import { pauseByPerson } from '../../src/lib/server/settings/operator-pause.ts';
import { generationText } from '../../src/lib/i18n/generation.ts';
import { endMaintenance, startMaintenance } from '../../src/lib/server/settings/maintenance.ts';
import { nextPacificMidnight } from '../../src/lib/server/spend/provider-quota-day.ts';
import { FakeClock, MINUTE, SECOND } from '../../src/lib/server/time/clock.ts';
import { deliverGuestNotices } from '../../src/lib/server/jobs/guest-notice-outbox.ts';
import { enforceJobDeadlines } from '../../src/worker/tasks/deadlines.ts';
import { noticeDepsFor, useGenerationWorld, waitForJobStatus, type GenerationWorld } from './generation-harness.ts';

const PAUSED_TEXT = /Your pack is delayed: drawing is paused/;

/** Pauses hold the queue: the hard deadline counts only the time the queue was running. */
describe('pauses hold the queue (fake clock, real emulator)', () => {
	const worlds = useGenerationWorld('gen-pauses-');
	const botTexts = async (world: GenerationWorld, guestId: number) =>
		(await world.emulator.control.chatMessages(guestId)).filter((m) => m.from_bot).map((m) => m.text ?? '');

	it('a 3-hour pause with 10 queued jobs: none fails, each guest told once, drained oldest first after resume', async () => {
		const world = await worlds.open();
		const clock = new FakeClock(new Date().toISOString());
		const deps = { db: world.db, clock, logger: silentLogger, delayNoticeMs: 5 * MINUTE, hardDeadlineMs: 20 * MINUTE };
		const notices = noticeDepsFor(world, clock);
		const guests: number[] = [];
		const jobs: number[] = [];
		for (let i = 0; i < 10; i++) {
			const guest = await world.emulator.control.createUser({ first_name: `Guest${i}`, language_code: 'en' });
			await world.emulator.control.sendUserMessage({ user_id: guest.id, text: '/start' });
			await world.db.user.create({
				data: {
					telegramUserId: BigInt(guest.id),
					firstName: `Guest${i}`,
					consentedAt: clock.now().toISOString(),
					createdAt: clock.now().toISOString()
				}
			});
			guests.push(guest.id);
			jobs.push(await world.queueJob({ createdAt: clock.now(), guestId: guest.id, stillPack: true }));
			clock.advance(SECOND);
		}
		await startMaintenance(world.db, clock, 'admin', 'venue closed for the speeches');
		clock.advance(30 * SECOND);
		expect(await enforceJobDeadlines(deps)).toEqual({ noticed: [], failed: [] });
		clock.advance(MINUTE);
		expect((await enforceJobDeadlines(deps)).noticed).toEqual(jobs);
		// Sent in passes of at most 8 (the outbox's share of Telegram's ~30 messages a second).
		expect(await deliverGuestNotices(notices)).toBe(8);
		expect(await deliverGuestNotices(notices)).toBe(2);
		for (let step = 0; step < 18; step++) {
			clock.advance(10 * MINUTE);
			expect(await enforceJobDeadlines(deps)).toEqual({ noticed: [], failed: [] });
			expect(await deliverGuestNotices(notices)).toBe(0);
		}
		await endMaintenance(world.db);
		expect(await enforceJobDeadlines(deps)).toEqual({ noticed: [], failed: [] });
		clock.advance(5 * MINUTE);
		expect(await enforceJobDeadlines(deps)).toEqual({ noticed: [], failed: [] });
		const pauses = await world.db.queuePause.findMany();
		expect(pauses).toHaveLength(1);
		expect(pauses[0]).toMatchObject({ source: 'admin', reason: 'venue closed for the speeches' });
		expect(pauses[0]?.endedAt).not.toBeNull();

		// After resume the queue drains oldest first (one slot: claims in queue order) and every pack is
		// delivered. Waited for as a condition, not a time: a loaded machine draws slower, never less.
		await worlds.startLoop({ WORKER_SLOTS: '1' });
		const drainedBy = Date.now() + 540_000; // one bound for the whole drain, under the test's own timeout
		for (const jobId of jobs)
			expect(await waitForJobStatus(world.db, jobId, ['done', 'failed'], Math.max(1_000, drainedBy - Date.now()))).toBe(
				'done'
			);
		await worlds.stopLoop();
		const delivered = await world.db.job.findMany({
			where: { jobId: { in: jobs } },
			select: { jobId: true, linkSentAt: true },
			orderBy: { linkSentAt: 'asc' }
		});
		expect(delivered.map((job) => job.jobId)).toEqual(jobs);
		for (const guestId of guests) {
			const said = await botTexts(world, guestId);
			expect(said.filter((t) => PAUSED_TEXT.test(t))).toHaveLength(1);
			expect(said.filter((t) => /took too long|taking a little longer|could not/.test(t))).toHaveLength(0);
			expect(said.filter((t) => t.includes('t.me/addstickers/'))).toHaveLength(1);
		}
	}, 600_000);

	it('an operator’s words for guests reach the waiting guests and the kiosk; the staff’s reason reaches neither', async () => {
		const world = await worlds.open();
		const clock = new FakeClock(new Date().toISOString());
		const deps = { db: world.db, clock, logger: silentLogger, delayNoticeMs: 5 * MINUTE, hardDeadlineMs: 20 * MINUTE };
		const guest = await world.emulator.control.createUser({ first_name: 'Dilnoza', language_code: 'en' });
		await world.emulator.control.sendUserMessage({ user_id: guest.id, text: '/start' });
		await world.db.user.create({
			data: {
				telegramUserId: BigInt(guest.id),
				firstName: 'Dilnoza',
				consentedAt: clock.now().toISOString(),
				createdAt: clock.now().toISOString()
			}
		});
		const jobId = await world.queueJob({ createdAt: clock.now(), guestId: guest.id });
		await pauseByPerson(
			world.db,
			clock,
			{ name: 'olga', ip: null },
			'console',
			'provider invoice unpaid',
			'Back at 14:00'
		);
		expect(kioskPauseView(await readKioskPause(world.db, clock))).toEqual({
			paused: true,
			pausedUntil: null,
			pauseNote: 'Back at 14:00'
		});
		clock.advance(2 * MINUTE);
		expect((await enforceJobDeadlines(deps)).noticed).toEqual([jobId]);
		expect(await deliverGuestNotices(noticeDepsFor(world, clock))).toBe(1);
		const said = await botTexts(world, guest.id);
		expect(said.filter((t) => PAUSED_TEXT.test(t))).toEqual([
			generationText('en', 'pausedWithNote', { note: 'Back at 14:00' })
		]);
		expect(said.join('\n')).not.toContain('invoice');
	});

	it('a quota pause across Pacific midnight: counted until midnight even when nobody looked, then the deadline runs on', async () => {
		const world = await worlds.open();
		// 1 March: Pacific is UTC−8, so its midnight is 08:00 UTC.
		const clock = new FakeClock('2026-03-01T07:27:00.000Z');
		const deps = { db: world.db, clock, logger: silentLogger, delayNoticeMs: 5 * MINUTE, hardDeadlineMs: 20 * MINUTE };
		const notices = noticeDepsFor(world, clock);
		const jobId = await world.queueJob({ createdAt: clock.now() });
		clock.advance(3 * MINUTE);
		const until = nextPacificMidnight(clock.now());
		expect(until.toISOString()).toBe('2026-03-01T08:00:00.000Z');
		expect(await pauseForQuotaDay(world.db, clock, until, 'RESOURCE_EXHAUSTED per day')).toBe(true);
		expect(await enforceJobDeadlines(deps)).toEqual({ noticed: [], failed: [] });
		clock.advance(2 * MINUTE);
		expect(await enforceJobDeadlines(deps)).toEqual({ noticed: [jobId], failed: [] });
		expect(await deliverGuestNotices(notices)).toBe(1);
		// The worker was down across midnight; it looks again at 08:16 UTC: 3 + 16 = 19 min of running queue.
		clock.set(new Date('2026-03-01T08:16:00.000Z'));
		expect(await enforceJobDeadlines(deps)).toEqual({ noticed: [], failed: [] });
		expect((await world.db.queuePause.findFirstOrThrow()).endedAt).toBe('2026-03-01T08:00:00.000Z');
		clock.set(new Date('2026-03-01T08:17:01.000Z'));
		expect(await enforceJobDeadlines(deps)).toEqual({ noticed: [], failed: [jobId] });
		expect(await deliverGuestNotices(notices)).toBe(1);
		const said = await botTexts(world, world.guestId);
		expect(said.filter((t) => PAUSED_TEXT.test(t))).toHaveLength(1);
		expect(said.filter((t) => t.includes('took too long'))).toHaveLength(1);
	});

	it('per-minute quota holds (38 s each) are taken out of the deadline, each its own pause, none long enough to tell the guest of a pause', async () => {
		const world = await worlds.open();
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const deps = { db: world.db, clock, logger: silentLogger, delayNoticeMs: 5 * MINUTE, hardDeadlineMs: 20 * MINUTE };
		const jobId = await world.queueJob({ createdAt: clock.now() });
		for (let i = 0; i < 3; i++) {
			clock.advance(i === 0 ? MINUTE : 20 * SECOND);
			await holdForQuotaMinute(
				world.db,
				clock,
				new Date(clock.now().getTime() + 38 * SECOND),
				'gemini per-minute quota: RESOURCE_EXHAUSTED'
			);
			expect(await enforceJobDeadlines(deps)).toEqual({ noticed: [], failed: [] });
			clock.advance(40 * SECOND);
			expect(await enforceJobDeadlines(deps)).toEqual({ noticed: [], failed: [] });
		}
		const rows = await world.db.queuePause.findMany({ orderBy: { id: 'asc' } });
		expect(rows.map((r) => [r.source, r.startedAt, r.endedAt])).toEqual([
			['quota_minute', '2026-03-01T10:01:00.000Z', '2026-03-01T10:01:38.000Z'],
			['quota_minute', '2026-03-01T10:02:00.000Z', '2026-03-01T10:02:38.000Z'],
			['quota_minute', '2026-03-01T10:03:00.000Z', '2026-03-01T10:03:38.000Z']
		]);
		// 20 minutes of running queue end at 10:21:54 (114 s held).
		clock.set(new Date('2026-03-01T10:21:53.000Z'));
		expect((await enforceJobDeadlines(deps)).failed).toEqual([]);
		clock.set(new Date('2026-03-01T10:21:55.000Z'));
		expect((await enforceJobDeadlines(deps)).failed).toEqual([jobId]);
		await deliverGuestNotices(noticeDepsFor(world, clock));
		expect((await botTexts(world, world.guestId)).filter((t) => PAUSED_TEXT.test(t))).toHaveLength(0);
	});
});
