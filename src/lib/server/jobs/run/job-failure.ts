import { computeBackoffMs } from '../../time/backoff.ts';
import { ADMIN_ALERTS } from '../../../i18n/admin-alerts.ts';
import { alertAdmins } from '../../telegram/admin-alerts.ts';
import { deliverJobNoticesNow } from '../guest-notice-outbox.ts';
import { recordStage } from '../job-progress.ts';
import { isShutdown, JobAborted, NoFaceFound, SelfieMissing } from '../job-errors.ts';
import { failJobForGood, requeueJob } from '../job.repository.ts';
import { nextPacificMidnight } from '../../spend/provider-quota-day.ts';
import { ProviderError } from '../../providers/provider.ts';
import { startMaintenance } from '../../settings/maintenance.ts';
import { pauseForQuotaDay, readQueuePause } from '../queue-pause.ts';
import { pauseForMissingModels, pauseForProviderAccess } from '../model-pause.ts';
import { ModelMissing } from '../../providers/model-check.ts';
import type { QueueDeps } from './queue-deps.ts';
import { errorText } from '../../errors/error-text.ts';

/**
 * What a failed attempt leads to (capped exponential backoff with jitter, a maximum of attempts,
 * then `failed` with the guest told):
 * - stopped (JobAborted): for a WorkerShutdown reason back to the queue, attempt refunded; a lost
 *   lease (LeaseLost) or a job ended elsewhere: nothing, whoever holds the job now finishes it;
 * - day quota: queue paused until midnight Pacific, operators told once, job requeued (refunded);
 * - per-minute quota still answering after the call waited it out: job requeued (refunded) to start
 *   again when the queue's hold ends — the guest's attempts are never spent on our quota;
 * - access refused (key, permission, location): maintenance {source:'config'}, operators told once,
 *   job requeued (refunded);
 * - no funds: maintenance {source:'auto'}, operators told, job requeued (refunded);
 * - a configured model the provider does not serve (404): maintenance {source:'config'}, operators
 *   told once, job requeued (refunded) — every other job would fail the same way, so none retries;
 * - a missing selfie: failed at once (nothing to retry with);
 * - no face in the guest's photo (NoFaceFound): failed at once, the guest asked for a new photo;
 * - the provider refuses to draw this at all (`refused`): failed at once, the guest told without blame;
 * - anything else: requeued with capped exponential backoff + jitter, or — at max attempts —
 *   failed with the last error (≤ 1000 chars) and the guest told kindly.
 */
export interface FailedAttempt {
	jobId: number;
	attempts: number;
	error: unknown;
	signal: AbortSignal;
}

export async function handleJobFailure(deps: QueueDeps, attempt: FailedAttempt): Promise<void> {
	const { db, clock, logger } = deps;
	const message = errorText(attempt.error, 1000, { named: true });
	const notices = deps.alerts;
	if (attempt.signal.aborted || attempt.error instanceof JobAborted) {
		const reason: unknown = attempt.signal.aborted ? attempt.signal.reason : attempt.error;
		if (isShutdown(reason)) {
			await requeueJob(db, clock, attempt.jobId, {
				error: 'worker stopped during the job',
				notBefore: null,
				refundAttempt: true
			});
		}
		logger.info({ jobId: attempt.jobId, reason: errorText(reason) }, 'job stopped');
		return;
	}
	if (attempt.error instanceof ProviderError && attempt.error.failure === 'rate_day') {
		const until = nextPacificMidnight(clock.now());
		if (await pauseForQuotaDay(db, clock, until, message))
			await alertAdmins(notices, deps.settings.adminIds, ADMIN_ALERTS.quotaDay(until.toISOString(), message));
		await requeueJob(db, clock, attempt.jobId, {
			error: `daily quota exhausted: ${message}`,
			notBefore: until,
			refundAttempt: true
		});
		return;
	}
	if (attempt.error instanceof ProviderError && attempt.error.failure === 'rate_minute') {
		const pause = await readQueuePause(db, clock);
		const notBefore = pause?.until ? new Date(pause.until) : null;
		await requeueJob(db, clock, attempt.jobId, {
			error: `per-minute quota: ${message}`,
			notBefore,
			refundAttempt: true
		});
		return;
	}
	if (attempt.error instanceof ProviderError && attempt.error.failure === 'access') {
		await pauseForProviderAccess({ ...notices, clock, adminIds: deps.settings.adminIds }, attempt.error.message);
		await requeueJob(db, clock, attempt.jobId, {
			error: `provider access: ${message}`,
			notBefore: null,
			refundAttempt: true
		});
		return;
	}
	if (attempt.error instanceof ProviderError && attempt.error.failure === 'billing') {
		await startMaintenance(db, clock, 'auto', `image provider billing: ${message}`);
		await alertAdmins(notices, deps.settings.adminIds, ADMIN_ALERTS.billing(message));
		await requeueJob(db, clock, attempt.jobId, {
			error: `provider billing: ${message}`,
			notBefore: null,
			refundAttempt: true
		});
		return;
	}
	if (attempt.error instanceof ModelMissing) {
		await pauseForMissingModels({ ...notices, clock, adminIds: deps.settings.adminIds }, [attempt.error.model], false);
		await requeueJob(db, clock, attempt.jobId, {
			error: `model missing: ${message}`,
			notBefore: null,
			refundAttempt: true
		});
		return;
	}
	// Only a missing selfie is beyond retrying; any other missing file (a temp file, a debug sheet) is not.
	const refused = attempt.error instanceof ProviderError && attempt.error.failure === 'refused';
	const noFace = attempt.error instanceof NoFaceFound;
	const permanent = attempt.error instanceof SelfieMissing || refused || noFace;
	if (permanent || attempt.attempts >= deps.settings.maxAttempts) {
		logger.error({ jobId: attempt.jobId, err: attempt.error }, 'job failed for good');
		if (
			(await failJobForGood(db, clock, attempt.jobId, message, noFace ? 'no_face' : refused ? 'refused' : 'failed')).won
		) {
			await afterFailedForGood(deps, attempt.jobId, message);
		}
		return;
	}
	const delay = computeBackoffMs(attempt.attempts, {
		baseMs: deps.settings.backoffBaseMs,
		capMs: deps.settings.backoffCapMs
	});
	logger.warn(
		{ jobId: attempt.jobId, attempts: attempt.attempts, retryInMs: delay, err: attempt.error },
		'job attempt failed; will retry'
	);
	await requeueJob(db, clock, attempt.jobId, {
		error: message,
		notBefore: new Date(clock.now().getTime() + delay),
		refundAttempt: false
	});
}

/** A job just failed for good: its stage says so, and its failure notice (queued with the failure) is sent now. */
export async function afterFailedForGood(deps: QueueDeps, jobId: number, message: string): Promise<void> {
	await recordStage(deps.db, deps.clock, jobId, 'failed', message.slice(0, 300));
	await deliverJobNoticesNow(deps.notices, jobId);
}
