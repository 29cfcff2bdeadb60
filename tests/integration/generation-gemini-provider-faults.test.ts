import { describe, expect, it } from 'vitest';
import { ChatCooldown } from '../../src/lib/server/telegram/flood-control.ts';
import { readQueuePause } from '../../src/lib/server/jobs/queue-pause.ts';
import { createLogger } from '../../src/lib/server/log/logger.ts';
import { readMaintenance } from '../../src/lib/server/settings/maintenance.ts';
import { readSetting } from '../../src/lib/server/settings/settings.repository.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { runModelCheck } from '../../src/worker/tasks/model-check.task.ts';
import type { FaultKind } from '../../tools/fake-gemini/faults.ts';
import { useGeminiRuns, waitFor } from './generation-gemini-harness.ts';
import { waitForJobStatus, type GenerationWorld } from './generation-harness.ts';
import { sendPacingFor } from '../helpers/send-pacing.ts';

/**
 * Faults of the provider as a whole, through the real job loop and the real @google/genai client
 * against the fake Gemini: none of them may cost a guest an attempt, let alone the pack.
 */
describe('provider-wide faults cost no guest an attempt', () => {
	const start = useGeminiRuns('gen-gemini-faults-', { stillPacks: true });

	it('a storm of 24 per-minute 429s with RetryInfo: the queue holds for each delay, both packs are delivered, no attempt is spent', async () => {
		let second = 0;
		const { jobId, world, gemini, ...run } = await start(
			[{ kind: 'quota_minute', times: 24, delayMs: 150 }],
			{},
			async (w) => void (second = await w.queueJob())
		);
		for (const id of [jobId, second]) expect(await run.finalStatus(id)).toBe('done');
		const rows = [...(await run.usage(jobId)), ...(await run.usage(second))];
		expect(rows.filter((r) => r.httpStatus === 429)).toHaveLength(24);
		expect(rows.filter((r) => r.httpStatus === 429).every((r) => r.estCostUsd === 0)).toBe(true);
		for (const id of [jobId, second])
			expect((await world.db.job.findUniqueOrThrow({ where: { jobId: id } })).attempts).toBe(1);
		// The hold was the provider's delay (0.15 s and a little), recorded where every worker's claim reads it.
		const hold = JSON.parse((await readSetting(world.db, 'provider_hold'))!) as {
			since: string;
			until: string;
			reason: string;
		};
		expect(hold.reason).toMatch(/^gemini per-minute quota: .*RESOURCE_EXHAUSTED/);
		expect(Date.parse(hold.until) - Date.parse(hold.since)).toBeGreaterThanOrEqual(150);
		expect(await readQueuePause(world.db, systemClock)).toBeNull();
		expect(gemini.calls.filter((c) => c.status === 429)).toHaveLength(24);
	}, 150_000);

	it('a per-minute 429 holds the queue for its retry delay: nothing is claimed until it ends, and the kiosk stays open', async () => {
		const { jobId, world, gemini, ...run } = await start([
			{ kind: 'quota_minute', times: 1, match: 'passport', delayMs: 4000 }
		]);
		await waitFor(async () => (await readQueuePause(world.db, systemClock))?.source === 'quota_minute');
		const pause = (await readQueuePause(world.db, systemClock))!;
		expect(Date.parse(pause.until!) - Date.parse(pause.since)).toBeGreaterThanOrEqual(4000);
		expect(pause.reason).toMatch(/per-minute quota/);
		const { readKioskPause } = await import('../../src/lib/server/jobs/queue-pause.ts');
		expect(await readKioskPause(world.db, systemClock)).toBeNull();
		// A guest who comes now waits for the hold: the free slot does not claim their job. Read from the
		// records afterwards (when the job was queued, when its first stage began, when each call came),
		// not from a pause of the test's own: a busy machine may run the hold out before a look.
		const second = await world.queueJob();
		const until = Date.parse(pause.until!);
		expect(Date.parse((await world.db.job.findUniqueOrThrow({ where: { jobId: second } })).createdAt)).toBeLessThan(
			until
		);
		for (const id of [jobId, second]) expect(await run.finalStatus(id)).toBe('done');
		const progress = await world.db.jobProgress.findUniqueOrThrow({ where: { jobId: second } });
		const firstStage = (JSON.parse(progress.stageLog ?? '[]') as { at: string }[])[0]!;
		expect(Date.parse(firstStage.at)).toBeGreaterThanOrEqual(until);
		expect(gemini.calls.slice(1).every((call) => call.at >= until)).toBe(true);
		for (const id of [jobId, second])
			expect((await world.db.job.findUniqueOrThrow({ where: { jobId: id } })).attempts).toBe(1);
	}, 150_000);

	const ACCESS: { kind: FaultKind; reason: RegExp }[] = [
		{ kind: 'key_invalid', reason: /API_KEY_INVALID.*GEMINI_API_KEY/ },
		{ kind: 'permission_denied', reason: /PERMISSION_DENIED/ },
		{ kind: 'location', reason: /FAILED_PRECONDITION.*location/ }
	];

	it.each(ACCESS)(
		'$kind: the queue pauses (config) with the reason, admins are told once, no attempt is spent; the model check passing lifts it',
		async ({ kind, reason }) => {
			let second = 0;
			const { jobId, world, ...run } = await start(
				[{ kind, times: 2, match: 'passport' }],
				{},
				async (w) => void (second = await w.queueJob())
			);
			await waitFor(async () => (await readMaintenance(world.db)) !== null);
			const maintenance = (await readMaintenance(world.db))!;
			expect(maintenance.source).toBe('config');
			expect(maintenance.reason).toMatch(reason);
			expect((await readQueuePause(world.db, systemClock))?.source).toBe('config');
			for (const id of [jobId, second])
				await waitFor(async () => (await world.db.job.findUniqueOrThrow({ where: { jobId: id } })).status === 'queued');
			for (const id of [jobId, second])
				expect((await world.db.job.findUniqueOrThrow({ where: { jobId: id } })).attempts).toBe(0);
			await waitFor(async () => (await run.adminMessages()).some((t) => t.includes('refuses our access')));
			await new Promise((resolve) => setTimeout(resolve, 500));
			expect((await run.adminMessages()).filter((t) => t.includes('refuses our access'))).toHaveLength(1);
			// The operator fixed it; the model check (at start, every hour) finds the models and lifts the pause.
			expect(await modelCheckWith(world, run, 'test-key')).toBe('ok');
			expect(await readMaintenance(world.db)).toBeNull();
			for (const id of [jobId, second]) expect(await run.finalStatus(id)).toBe('done');
			for (const id of [jobId, second])
				expect((await world.db.job.findUniqueOrThrow({ where: { jobId: id } })).attempts).toBe(1);
		},
		150_000
	);

	it('a key the API refuses is found by the model check at start: the queue pauses before the first guest', async () => {
		const { jobId, world, ...run } = await start([], { GEMINI_API_KEY: 'revoked-key' });
		expect(await modelCheckWith(world, run, 'revoked-key')).toBe('denied');
		expect((await readMaintenance(world.db))?.reason).toMatch(/API_KEY_INVALID/);
		await waitFor(async () => (await world.db.job.findUniqueOrThrow({ where: { jobId } })).status === 'queued');
		expect(await waitForJobStatus(world.db, jobId, ['queued'])).toBe('queued');
		expect((await world.db.job.findUniqueOrThrow({ where: { jobId } })).attempts).toBe(0);
	}, 60_000);
});

/** The worker's model check (at start, every hour) with `key`, against the run's fake Gemini. */
function modelCheckWith(world: GenerationWorld, run: { gemini: { url: string }; adminId: number }, key: string) {
	const config = world.config({ IMAGE_PROVIDER: 'gemini', GEMINI_API_KEY: key, GEMINI_BASE_URL: run.gemini.url });
	return runModelCheck(config, {
		db: world.db,
		clock: systemClock,
		logger: createLogger('test', 'silent'),
		api: world.api,
		pacing: sendPacingFor(world.db, systemClock),
		cooldown: new ChatCooldown(),
		adminIds: [BigInt(run.adminId)]
	});
}
