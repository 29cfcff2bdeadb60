import { ProviderError, type CallUsage } from '../providers/provider.ts';

/**
 * The errors a running job stops with, shared by the pipeline, delivery and the failure policy.
 * A stop is not a failure of the job: nothing about the guest's photo or the provider went wrong,
 * so it never uses up an attempt or fails the job.
 */

/** The job must stop now: its signal was aborted, or this claim no longer holds the job. */
export class JobAborted extends Error {
	constructor(reason: string) {
		super(reason);
		this.name = 'JobAborted';
	}
}

/** The worker is stopping: the job goes back to the queue with its attempt refunded. */
export class WorkerShutdown extends JobAborted {
	constructor() {
		super('worker shutting down');
		this.name = 'WorkerShutdown';
	}
}

/**
 * This claim lost the job: its lease ran out (the job was requeued, maybe claimed again) or the job
 * left the claimed states (a deadline failed it). Whoever holds the job now finishes it.
 */
export class LeaseLost extends JobAborted {
	constructor(reason = 'lease lost or job no longer active') {
		super(reason);
		this.name = 'LeaseLost';
	}
}

/** The selfie is gone (TTL sweep, /forget, a reset): no retry can bring it back. */
export class SelfieMissing extends Error {
	constructor() {
		super('the selfie is no longer on disk (deleted by the photo TTL, /forget or a reset)');
		this.name = 'SelfieMissing';
	}
}

/**
 * The guest's photo shows no face to draw from. A retry would look at the same photo, so the job
 * fails at once and the guest is asked for a new photo. A ProviderError of class `bad_output`, so a
 * provider call neither retries it nor hands it to the fallback provider.
 */
export class NoFaceFound extends ProviderError {
	constructor(usage: Partial<CallUsage> = {}) {
		super('bad_output', 'no face found in the photo', usage);
		this.name = 'NoFaceFound';
	}
}

/** Whether a job's signal was aborted because the worker is stopping. */
export function isShutdown(reason: unknown): reason is WorkerShutdown {
	return reason instanceof WorkerShutdown;
}

/** Stops the job at the next step once its signal is aborted, with the reason it was aborted for. */
export function throwIfAborted(signal: AbortSignal): void {
	if (!signal.aborted) return;
	throw signal.reason instanceof JobAborted ? signal.reason : new JobAborted(String(signal.reason ?? 'aborted'));
}
