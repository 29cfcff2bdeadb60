import {
	ProviderError,
	type CallUsage,
	type JobBrief,
	type ProviderResult,
	type UsageKind
} from '../../providers/provider.ts';
import { recordApiUsage } from '../../spend/usage-recorder.ts';
import { computeBackoffMs } from '../../time/backoff.ts';
import { throwIfAborted } from '../job-errors.ts';
import { holdForQuotaMinute } from '../queue-pause.ts';
import type { PipelineContext } from './pipeline-context.ts';
import { errorText } from '../../errors/error-text.ts';

/** Tries per call for faults that pass (5xx, timeouts) before the job itself backs off. */
const TRIES_PER_CALL = 4;
/**
 * Per-minute quota: one wait honours the provider's RetryInfo delay up to this (a minute's window
 * and a little); a call waits out such 429s for this long in all before its job goes back to the
 * queue (attempt refunded) to let others through.
 */
const MAX_QUOTA_WAIT_MS = 65_000;
export const QUOTA_WAIT_BUDGET_MS = 5 * 60_000;

/**
 * One provider call as the pipeline makes it: every try is one api_usage row (ok or not, with the
 * stage and the provider that answered); server faults are retried here with capped backoff. A
 * per-minute quota 429 holds the queue for the delay the provider named (RetryInfo; every slot and
 * worker stops claiming, Live and Health show it) and the call waits it out — as often as it takes
 * within QUOTA_WAIT_BUDGET_MS, none of it a try of the call or an attempt of the job. When the provider cannot serve the
 * job — no funds, day quota, or still failing after every try — the fallback provider
 * (IMAGE_PROVIDER_FALLBACK) takes over the call and the rest of the job; without one, day quota
 * and billing are thrown at once for the queue to pause. `call` reads ctx.provider each time.
 *
 * An answer the provider stopped short of (failure `blocked`: a safety or recitation stop, no
 * image) is asked once more with `tone.softened` set; blocked again, or refused outright
 * (`refused`), it is thrown — no fallback: another provider is no answer to what was asked.
 */
export interface CallTone {
	softened: boolean;
}

export async function callProvider<T>(
	ctx: PipelineContext,
	stage: string,
	kind: UsageKind,
	call: (tone: CallTone) => Promise<ProviderResult<T>>
): Promise<T> {
	const tone: CallTone = { softened: false };
	let quotaWaits = 0;
	let quotaWaitedMs = 0;
	for (let attempt = 1; ; attempt++) {
		throwIfAborted(ctx.signal);
		try {
			const result = await call(tone);
			await record(ctx, stage, result.usage, true);
			ctx.providersUsed.add(ctx.provider.name);
			ctx.crashPoint('after_provider_call');
			return result.value;
		} catch (error) {
			const failure = error instanceof ProviderError ? error : new ProviderError('server', errorText(error, 1000));
			await record(ctx, stage, { kind, model: 'unknown', ...failure.usage }, false, failure.message);
			if (failure.failure === 'blocked' && !tone.softened) {
				tone.softened = true;
				ctx.logger.warn(
					{ jobId: ctx.jobId, stage, reason: failure.message },
					'provider stopped short of an answer; asking once more, softened'
				);
				continue;
			}
			if (failure.failure === 'rate_minute') {
				const waitMs = await holdForQuota(ctx, failure, quotaWaits++);
				if (quotaWaitedMs + waitMs <= QUOTA_WAIT_BUDGET_MS) {
					quotaWaitedMs += waitMs;
					attempt--;
					ctx.logger.warn(
						{ jobId: ctx.jobId, stage, waitMs },
						'provider per-minute quota; the queue holds and the call waits the retry delay'
					);
					await ctx.sleep(waitMs, ctx.signal);
					continue;
				}
			}
			const passing = failure.failure === 'server';
			const exhausted = !passing || attempt >= TRIES_PER_CALL;
			if (exhausted && isProviderWide(failure) && (await switchToFallback(ctx, failure))) {
				attempt = 0;
				continue;
			}
			if (exhausted) throw failure;
			const backoff = computeBackoffMs(attempt, { baseMs: ctx.retryBaseMs, capMs: ctx.retryBaseMs * 16 });
			const wait = Math.max(backoff, Math.min((failure.retryAfterSeconds ?? 0) * 1000, ctx.retryBaseMs * 30));
			ctx.logger.warn(
				{ jobId: ctx.jobId, stage, failure: failure.failure, attempt, waitMs: wait },
				'provider call failed; retrying'
			);
			await ctx.sleep(wait, ctx.signal);
		}
	}
}

/**
 * Holds the queue (every worker) for the provider's retry delay and returns how long this call
 * waits: the delay (plus a little, so the quota's window has turned), or capped backoff when the
 * provider named none.
 */
async function holdForQuota(ctx: PipelineContext, failure: ProviderError, waits: number): Promise<number> {
	const named =
		failure.retryAfterSeconds !== undefined ? Math.min(failure.retryAfterSeconds * 1000, MAX_QUOTA_WAIT_MS) : undefined;
	const waitMs =
		named !== undefined
			? Math.ceil(named * 1.05)
			: computeBackoffMs(waits + 1, { baseMs: ctx.retryBaseMs, capMs: ctx.retryBaseMs * 16 });
	await holdForQuotaMinute(
		ctx.db,
		ctx.clock,
		new Date(ctx.clock.now().getTime() + waitMs),
		`${ctx.provider.name} per-minute quota: ${failure.message}`
	);
	return waitMs;
}

/** The brief for one try: softened after the provider stopped short once. */
export function briefFor(ctx: PipelineContext, tone: CallTone): JobBrief {
	return tone.softened ? { ...ctx.brief, softened: true } : ctx.brief;
}

/** Faults of the provider as a whole, which the fallback can answer; not faults of one answer. */
function isProviderWide(failure: ProviderError): boolean {
	return failure.failure !== 'bad_output' && failure.failure !== 'blocked' && failure.failure !== 'refused';
}

/** The fallback takes over this job from here on; false when there is none (or it is already in use). */
async function switchToFallback(ctx: PipelineContext, failure: ProviderError): Promise<boolean> {
	const fallback = ctx.fallback;
	if (!fallback) return false;
	const from = ctx.provider.name;
	ctx.provider = fallback.provider;
	ctx.prices = fallback.prices;
	ctx.fallback = undefined;
	ctx.logger.warn(
		{ jobId: ctx.jobId, from, to: fallback.provider.name, failure: failure.failure },
		'provider cannot serve this job; the fallback provider takes over'
	);
	await ctx.onFallback({ from, to: fallback.provider.name, failure: failure.failure, message: failure.message });
	return true;
}

async function record(
	ctx: PipelineContext,
	stage: string,
	usage: Partial<CallUsage> & { kind: UsageKind; model: string },
	ok: boolean,
	error?: string
): Promise<void> {
	await recordApiUsage(ctx.db, ctx.clock, ctx.prices, {
		jobId: ctx.jobId,
		stage,
		provider: ctx.provider.name,
		usage,
		ok,
		error
	});
}
