import { describe, expect, it } from 'vitest';
import { ChatCooldown } from '../../src/lib/server/telegram/flood-control.ts';
import { computeBackoffMs } from '../../src/lib/server/time/backoff.ts';
import { requeueJob } from '../../src/lib/server/jobs/job.repository.ts';
import {
	claimNextJob,
	releaseLease,
	renewLease,
	requeueAbandonedJobs
} from '../../src/lib/server/jobs/job-claims.repository.ts';
import { choosePackName } from '../../src/lib/server/jobs/delivery/pack-name.ts';
import { FakeClock, MINUTE, SECOND, systemClock } from '../../src/lib/server/time/clock.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { enforceJobDeadlines } from '../../src/worker/tasks/deadlines.ts';
import { warnAdminsAboutDailyRequests } from '../../src/worker/tasks/rpd-warning.ts';
import { createTestDb } from '../helpers/test-db.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { createGenerationWorld, noticeDepsFor } from './generation-harness.ts';
import { deliverGuestNotices } from '../../src/lib/server/jobs/guest-notice-outbox.ts';
import { sendPacingFor } from '../helpers/send-pacing.ts';

async function freshDb(dir: string) {
	return (await createTestDb(dir)).db;
}

async function insertJobs(
	db: Awaited<ReturnType<typeof freshDb>>,
	count: number,
	createdAt = '2026-01-01T00:00:00.000Z'
) {
	for (let i = 0; i < count; i++) {
		await db.job.create({
			data: {
				telegramUserId: 42n,
				sessionToken: `s${i}`,
				photoPath: `/nowhere/${i}.jpg`,
				templateId: 'tuxedo',
				status: 'queued',
				createdAt,
				updatedAt: createdAt
			}
		});
	}
}

describe('the generation queue', () => {
	const tempDir = useTempDir('gen-queue-');

	// Slots of one worker share its client; a second worker process would race through SQLite's write
	// lock the same way (in one process, a second better-sqlite3 connection waiting for the lock would
	// block the event loop that must commit the first — so the race here is between async slots).
	it('slots claiming at once never take the same job', async () => {
		const a = await freshDb(tempDir());
		await insertJobs(a, 8);
		const claims = await Promise.all(
			Array.from({ length: 12 }, (_, i) => claimNextJob(a, systemClock, `slot${i % 2}`, 30_000))
		);
		const ids = claims.filter((c) => c !== null).map((c) => c!.jobId);
		expect(ids).toHaveLength(8);
		expect(new Set(ids).size).toBe(8);
		expect(claims.filter((c) => c === null)).toHaveLength(4);
		expect(await a.job.count({ where: { status: 'processing', attempts: 1 } })).toBe(8);
		expect(await a.jobLease.count()).toBe(8);
		await a.$disconnect();
	});

	it('claims the oldest queued job first and respects a backoff (not_before)', async () => {
		const db = await freshDb(tempDir());
		const clock = new FakeClock('2026-01-01T00:10:00.000Z');
		await db.job.create({
			data: {
				telegramUserId: 1n,
				sessionToken: 'new',
				photoPath: 'x',
				templateId: 't',
				status: 'queued',
				createdAt: '2026-01-01T00:05:00.000Z',
				updatedAt: 'x'
			}
		});
		await db.job.create({
			data: {
				telegramUserId: 1n,
				sessionToken: 'old',
				photoPath: 'x',
				templateId: 't',
				status: 'queued',
				createdAt: '2026-01-01T00:01:00.000Z',
				updatedAt: 'x'
			}
		});
		const first = await claimNextJob(db, clock, 'w', 30_000);
		expect((await db.job.findUniqueOrThrow({ where: { jobId: first!.jobId } })).sessionToken).toBe('old');
		await requeueJob(db, clock, first!.jobId, {
			error: 'boom',
			notBefore: new Date(clock.now().getTime() + 10 * SECOND),
			refundAttempt: false
		});
		const second = await claimNextJob(db, clock, 'w', 30_000);
		expect((await db.job.findUniqueOrThrow({ where: { jobId: second!.jobId } })).sessionToken).toBe('new');
		expect(await claimNextJob(db, clock, 'w', 30_000)).toBeNull();
		clock.advance(11 * SECOND);
		const third = await claimNextJob(db, clock, 'w', 30_000);
		expect(third).toEqual({ jobId: first!.jobId, attempts: 2, claimedAt: clock.now().toISOString() });
		await db.$disconnect();
	});

	it('a job whose lease expired (worker died) is requeued; a live lease is left alone', async () => {
		const db = await freshDb(tempDir());
		const clock = new FakeClock('2026-01-01T00:00:00.000Z');
		await insertJobs(db, 2);
		const dead = await claimNextJob(db, clock, 'dead-worker', 30_000);
		clock.advance(20 * SECOND);
		const alive = await claimNextJob(db, clock, 'live-worker', 30_000);
		clock.advance(15 * SECOND);
		expect(await requeueAbandonedJobs(db, clock, { maxAttempts: 3 })).toEqual({ requeued: [dead!.jobId], failed: [] });
		const job = await db.job.findUniqueOrThrow({ where: { jobId: dead!.jobId } });
		expect(job.status).toBe('queued');
		expect(job.error).toMatch(/lease expired/);
		expect((await db.job.findUniqueOrThrow({ where: { jobId: alive!.jobId } })).status).toBe('processing');
		await db.$disconnect();
	});

	it('a job whose every claim died with its worker fails for good at the last allowed claim, the guest told once', async () => {
		const db = await freshDb(tempDir());
		const clock = new FakeClock('2026-01-01T00:00:00.000Z');
		await insertJobs(db, 1);
		const sweeps = [];
		for (let claim = 1; claim <= 3; claim++) {
			expect(await claimNextJob(db, clock, `worker-${claim}`, 30_000)).toMatchObject({ attempts: claim });
			clock.advance(31 * SECOND); // the worker died: no renewal, the lease runs out
			sweeps.push(await requeueAbandonedJobs(db, clock, { maxAttempts: 3 }));
		}
		const [jobId] = sweeps[0]!.requeued;
		expect(sweeps).toEqual([
			{ requeued: [jobId], failed: [] },
			{ requeued: [jobId], failed: [] },
			{ requeued: [], failed: [jobId] }
		]);
		const job = await db.job.findUniqueOrThrow({ where: { jobId } });
		expect(job).toMatchObject({ status: 'failed', attempts: 3 });
		expect(job.error).toMatch(/^worker lost: .*each of its 3 claims/);
		expect(await db.jobLease.count()).toBe(0);
		expect(await db.guestNotice.findMany({ where: { jobId }, select: { kind: true, textKey: true } })).toEqual([
			{ kind: 'failure', textKey: 'failed' }
		]);
		// Failed, not queued: nothing left to claim, and a later sweep finds nothing.
		expect(await claimNextJob(db, clock, 'worker-4', 30_000)).toBeNull();
		expect(await requeueAbandonedJobs(db, clock, { maxAttempts: 3 })).toEqual({ requeued: [], failed: [] });
		await db.$disconnect();
	});

	it('a graceful stop (attempt refunded) never counts toward the cap, however often it happens', async () => {
		const db = await freshDb(tempDir());
		const clock = new FakeClock('2026-01-01T00:00:00.000Z');
		await insertJobs(db, 1);
		for (let stop = 1; stop <= 5; stop++) {
			const claimed = await claimNextJob(db, clock, 'w', 30_000);
			expect(claimed).toMatchObject({ attempts: 1 });
			await requeueJob(db, clock, claimed!.jobId, {
				error: 'worker stopped during the job',
				notBefore: null,
				refundAttempt: true
			});
		}
		const last = await claimNextJob(db, clock, 'w', 30_000);
		clock.advance(31 * SECOND);
		expect(await requeueAbandonedJobs(db, clock, { maxAttempts: 3 })).toEqual({ requeued: [last!.jobId], failed: [] });
		await db.$disconnect();
	});

	// A slot frozen past its lease (GC, swap) while the same worker claims the job again in another
	// slot: the two claims share the worker id, so only the claim time tells their leases apart.
	it('a lease belongs to one claim: an older claim of the same worker can neither renew nor release it', async () => {
		const db = await freshDb(tempDir());
		const clock = new FakeClock('2026-01-01T00:00:00.000Z');
		await insertJobs(db, 1);
		const old = await claimNextJob(db, clock, 'w', 30_000);
		clock.advance(31 * SECOND);
		expect(await requeueAbandonedJobs(db, clock, { maxAttempts: 3 })).toEqual({ requeued: [old!.jobId], failed: [] });
		const again = await claimNextJob(db, clock, 'w', 30_000);
		expect(again).toMatchObject({ jobId: old!.jobId, attempts: 2 });
		expect(await renewLease(db, clock, { ...old!, workerId: 'w' }, 30_000)).toBe(false);
		await releaseLease(db, { ...old!, workerId: 'w' });
		expect(await db.jobLease.findUnique({ where: { jobId: old!.jobId } })).toMatchObject({
			claimedAt: again!.claimedAt
		});
		expect(await renewLease(db, clock, { ...again!, workerId: 'w' }, 30_000)).toBe(true);
		await releaseLease(db, { ...again!, workerId: 'w' });
		expect(await db.jobLease.findUnique({ where: { jobId: old!.jobId } })).toBeNull();
		await db.$disconnect();
	});

	it('a worker’s sweep never requeues the jobs its own slots are running, even past their lease', async () => {
		const db = await freshDb(tempDir());
		const clock = new FakeClock('2026-01-01T00:00:00.000Z');
		await insertJobs(db, 2);
		const mine = await claimNextJob(db, clock, 'me', 30_000);
		const theirs = await claimNextJob(db, clock, 'dead', 30_000);
		clock.advance(45 * SECOND);
		expect(await requeueAbandonedJobs(db, clock, { except: [mine!.jobId], maxAttempts: 3 })).toEqual({
			requeued: [theirs!.jobId],
			failed: []
		});
		expect((await db.job.findUniqueOrThrow({ where: { jobId: mine!.jobId } })).status).toBe('processing');
		await db.$disconnect();
	});

	it('backoff is capped exponential with equal jitter (one formula)', () => {
		const policy = { baseMs: 1000, capMs: 30_000 };
		expect(computeBackoffMs(1, policy, () => 0)).toBe(500);
		expect(computeBackoffMs(1, policy, () => 1)).toBe(1000);
		expect(computeBackoffMs(3, policy, () => 1)).toBe(4000);
		expect(computeBackoffMs(10, policy, () => 1)).toBe(30_000);
		expect(computeBackoffMs(10, policy, () => 0)).toBe(15_000);
	});

	it('never reuses a pack number: jobs, users and reset_user audit entries count', async () => {
		const db = await freshDb(tempDir());
		await db.job.create({
			data: {
				telegramUserId: 7n,
				sessionToken: 'a',
				photoPath: 'x',
				templateId: 't',
				status: 'done',
				packName: 'p7_2_by_bot',
				createdAt: 'x',
				updatedAt: 'x'
			}
		});
		await db.auditLog.create({
			data: {
				ts: 'x',
				actor: 'op',
				action: 'reset_user',
				telegramUserId: 7n,
				details: JSON.stringify({ packNames: ['p7_3_by_bot'], packLinks: ['https://t.me/addstickers/p7_5_by_bot'] })
			}
		});
		expect(await choosePackName(db, 7n, 'bot')).toBe('p7_6_by_bot');
		expect(await choosePackName(db, 8n, 'bot')).toBe('p8_1_by_bot');
		// Names of an erased guest survive only as ledger fingerprints: those numbers are skipped too.
		const retired = new Set(['p9_1_by_bot', 'p9_2_by_bot']);
		expect(await choosePackName(db, 9n, 'bot', async (name) => retired.has(name))).toBe('p9_3_by_bot');
		await db.$disconnect();
	});
});

describe('deadlines and the daily request warning (fake clock, real emulator)', () => {
	const tempDir = useTempDir('gen-deadline-');

	it('one "taking longer" notice at 5 min, exactly once; failed with a message at 20 min', async () => {
		const world = await createGenerationWorld(tempDir());
		try {
			const clock = new FakeClock('2026-03-01T10:00:00.000Z');
			const jobId = await world.queueJob({ createdAt: clock.now() });
			const deps = {
				db: world.db,
				clock,
				logger: silentLogger,
				delayNoticeMs: 5 * MINUTE,
				hardDeadlineMs: 20 * MINUTE
			};
			const notices = noticeDepsFor(world, clock);
			clock.advance(4 * MINUTE);
			expect(await enforceJobDeadlines(deps)).toEqual({ noticed: [], failed: [] });
			clock.advance(1 * MINUTE + SECOND);
			expect(await enforceJobDeadlines(deps)).toEqual({ noticed: [jobId], failed: [] });
			expect(await enforceJobDeadlines(deps)).toEqual({ noticed: [], failed: [] });
			expect(await deliverGuestNotices(notices)).toBe(1);
			clock.advance(15 * MINUTE);
			expect(await enforceJobDeadlines(deps)).toEqual({ noticed: [], failed: [jobId] });
			expect(await deliverGuestNotices(notices)).toBe(1);
			expect(await deliverGuestNotices(notices)).toBe(0);
			const job = await world.db.job.findUniqueOrThrow({ where: { jobId } });
			expect(job.status).toBe('failed');
			expect(job.error).toMatch(/^deadline/);
			const texts = (await world.emulator.control.chatMessages(world.guestId)).map((m) => m.text ?? '');
			expect(texts.filter((t) => t.includes('taking a little longer'))).toHaveLength(1);
			expect(texts.filter((t) => t.includes('took too long'))).toHaveLength(1);
		} finally {
			await world.close();
		}
	});

	it('warns admins once per Pacific quota day past the threshold', async () => {
		const world = await createGenerationWorld(tempDir());
		try {
			const admin = await world.emulator.control.createUser({ first_name: 'Admin' });
			await world.emulator.control.sendUserMessage({ user_id: admin.id, text: '/start' });
			const clock = new FakeClock('2026-03-01T09:00:00.000Z'); // 01:00 Pacific
			for (let i = 0; i < 3; i++)
				await world.db.apiUsage.create({
					data: { ts: clock.now().toISOString(), kind: 'image', provider: 'gemini', ok: 1, stage: 'sheet' }
				});
			const deps = {
				db: world.db,
				clock,
				logger: silentLogger,
				api: world.api,
				pacing: sendPacingFor(world.db, clock),
				cooldown: new ChatCooldown(),
				threshold: 3,
				adminIds: [BigInt(admin.id)]
			};
			expect(await warnAdminsAboutDailyRequests(deps)).toBe(true);
			expect(await warnAdminsAboutDailyRequests(deps)).toBe(false);
			expect((await world.db.setting.findUnique({ where: { key: 'rpd_warned:2026-03-01' } }))?.value).toBe('3');
			clock.advance(24 * 60 * MINUTE); // the next Pacific day starts with a fresh counter
			expect(await warnAdminsAboutDailyRequests(deps)).toBe(false);
			const warnings = (await world.emulator.control.chatMessages(admin.id)).filter((m) =>
				m.text?.includes('image requests today')
			);
			expect(warnings).toHaveLength(1);
		} finally {
			await world.close();
		}
	});
});
