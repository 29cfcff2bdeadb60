import { deliverPack } from '../delivery/deliver-pack.ts';
import { LeaseLost, WorkerShutdown } from '../job-errors.ts';
import { recordProvidersUsed } from '../job.repository.ts';
import { releaseLease, renewLease, type ClaimedJob, type LeaseRef } from '../job-claims.repository.ts';
import { drawStickers } from '../pipeline/run-pipeline.ts';
import { handleJobFailure } from './job-failure.ts';
import { buildJobContext } from './job-context.ts';
import type { QueueDeps } from './queue-deps.ts';

/**
 * One claimed job in one slot: heartbeat the lease, draw, deliver; on any error hand over to
 * handleJobFailure. The lease is always released at the end (graphile-worker: every job released).
 */
export async function runClaimedJob(deps: QueueDeps, claimed: ClaimedJob, shutdown: AbortSignal): Promise<void> {
	const { jobId, attempts } = claimed;
	const lease: LeaseRef = { jobId, workerId: deps.workerId, claimedAt: claimed.claimedAt };
	const controller = new AbortController();
	const onShutdown = () => controller.abort(new WorkerShutdown());
	shutdown.addEventListener('abort', onShutdown, { once: true });
	const heartbeat = startLeaseHeartbeat(deps, lease, controller);
	try {
		deps.crashPoint('after_claim', jobId);
		const ctx = await buildJobContext(deps, jobId, controller.signal);
		await drawStickers(ctx);
		await recordProvidersUsed(deps.db, jobId, ctx.providersUsed);
		const holdsLease = () => renewLease(deps.db, deps.clock, lease, deps.settings.leaseMs);
		await deliverPack(
			{
				...ctx,
				api: deps.api,
				botUsername: await deps.botUsername(),
				locale: ctx.brief.locale,
				sleep: deps.sleep,
				holdsLease
			},
			jobId
		);
	} catch (error) {
		await handleJobFailure(deps, { jobId, attempts, error, signal: controller.signal });
	} finally {
		clearInterval(heartbeat);
		shutdown.removeEventListener('abort', onShutdown);
		await releaseLease(deps.db, lease).catch((error: unknown) =>
			deps.logger.error({ err: error, jobId }, 'could not release the lease')
		);
	}
}

/** Renews the lease every third of its length; aborts the job when the lease or the job is gone. */
function startLeaseHeartbeat(deps: QueueDeps, lease: LeaseRef, controller: AbortController): NodeJS.Timeout {
	const { jobId } = lease;
	const timer = setInterval(
		() => {
			renewLease(deps.db, deps.clock, lease, deps.settings.leaseMs)
				.then((held) => {
					if (!held) controller.abort(new LeaseLost());
				})
				.catch((error: unknown) => deps.logger.warn({ err: error, jobId }, 'lease renewal failed; will retry'));
		},
		Math.max(200, Math.floor(deps.settings.leaseMs / 3))
	);
	timer.unref();
	return timer;
}
