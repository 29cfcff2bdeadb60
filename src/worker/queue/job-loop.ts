import {
	claimNextJob,
	deadLeaseHolders,
	hasQueuedJob,
	requeueAbandonedJobs
} from '../../lib/server/jobs/job-claims.repository.ts';
import { WorkerShutdown } from '../../lib/server/jobs/job-errors.ts';
import { readQueuePause } from '../../lib/server/jobs/queue-pause.ts';
import type { QueueDeps } from '../../lib/server/jobs/run/queue-deps.ts';
import { afterFailedForGood } from '../../lib/server/jobs/run/job-failure.ts';
import { runClaimedJob } from '../../lib/server/jobs/run/run-job.ts';
import type { GoneLaunch } from '../../lib/server/workers/worker-registry.ts';
import { within } from '../../lib/server/time/within.ts';

/**
 * The claim loop (graphile-worker's shape: claim → run → complete/fail → loop). Every pollMs it
 * asks a cheap indexed question ("any job queued?") and, with a free slot and no pause, claims the
 * oldest. Abandoned jobs (expired leases) are requeued at start and every half lease — or failed
 * for good when that was their last allowed claim (a poison pill that kills its worker every time).
 * The sweep at start also takes, without waiting for their leases, the jobs of launches the registry
 * knows dead — among them `gone`, the crashed launch whose stale instance lock this one took over.
 */
export class JobLoop {
	readonly #deps: QueueDeps;
	/** Each running slot's promise with its job id (its own sweep never requeues those jobs). */
	readonly #running = new Map<Promise<void>, number>();
	readonly #shutdown = new AbortController();
	#timer: NodeJS.Timeout | undefined;
	#ticking = false;
	#lastSweep = 0;
	#stopped = false;
	readonly #gone: GoneLaunch | null;

	constructor(deps: QueueDeps, gone: GoneLaunch | null = null) {
		this.#deps = deps;
		this.#gone = gone;
	}

	get busySlots(): number {
		return this.#running.size;
	}

	start(): void {
		this.#schedule(0);
	}

	/** Stops claiming; waits up to graceMs for running jobs, then aborts them (they requeue themselves). */
	async stop(graceMs: number): Promise<void> {
		this.#stopped = true;
		clearTimeout(this.#timer);
		const all = Promise.all(this.#running.keys());
		if ((await within(all, graceMs)) === 'late') {
			this.#shutdown.abort(new WorkerShutdown());
			await all;
		}
	}

	/** One pass: sweep abandoned jobs when due, then fill free slots. Exposed for tests. */
	async tick(): Promise<void> {
		if (this.#ticking || this.#stopped) return;
		this.#ticking = true;
		try {
			await this.#sweepWhenDue();
			while (!this.#stopped && this.#running.size < this.#deps.settings.slots) {
				if (!(await hasQueuedJob(this.#deps.db))) break;
				if (await readQueuePause(this.#deps.db, this.#deps.clock)) break;
				const claimStarted = performance.now();
				const claimed = await claimNextJob(
					this.#deps.db,
					this.#deps.clock,
					this.#deps.workerId,
					this.#deps.settings.leaseMs
				);
				if (!claimed) break;
				// claimMs: the claim's transaction as this worker waited for it (row locks of other workers included).
				const claimMs = Math.round((performance.now() - claimStarted) * 10) / 10;
				this.#deps.logger.info({ jobId: claimed.jobId, attempts: claimed.attempts, claimMs }, 'job claimed');
				const run = runClaimedJob(this.#deps, claimed, this.#shutdown.signal).finally(() => {
					this.#running.delete(run);
					this.#schedule(0);
				});
				this.#running.set(run, claimed.jobId);
			}
		} catch (error) {
			this.#deps.logger.error({ err: error }, 'job loop pass failed; will retry');
		} finally {
			this.#ticking = false;
		}
	}

	async #sweepWhenDue(): Promise<void> {
		const now = Date.now();
		if (now - this.#lastSweep < this.#deps.settings.leaseMs / 2) return;
		const atStart = this.#lastSweep === 0;
		this.#lastSweep = now;
		const { db, clock, workerId } = this.#deps;
		// Only at start: later, a launch silent past the registry's rule has also let its leases run out.
		const deadWorkers = atStart ? await deadLeaseHolders(db, clock, workerId, this.#gone) : [];
		const { requeued, failed } = await requeueAbandonedJobs(db, clock, {
			except: this.#running.values(),
			maxAttempts: this.#deps.settings.maxAttempts,
			deadWorkers
		});
		if (requeued.length > 0)
			this.#deps.logger.warn(
				{ jobIds: requeued, deadLaunches: deadWorkers },
				'requeued jobs whose worker stopped (lease expired or launch known dead)'
			);
		for (const jobId of failed) {
			this.#deps.logger.error(
				{ jobId, attempts: this.#deps.settings.maxAttempts },
				'job failed for good: its worker stopped on every claim'
			);
			await afterFailedForGood(this.#deps, jobId, 'the worker stopped on every claim of this job');
		}
	}

	#schedule(ms: number): void {
		if (this.#stopped) return;
		clearTimeout(this.#timer);
		this.#timer = setTimeout(() => {
			void this.tick().finally(() => this.#schedule(this.#deps.settings.pollMs));
		}, ms);
	}
}
