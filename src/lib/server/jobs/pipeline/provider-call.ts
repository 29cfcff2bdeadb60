import { ProviderError, type CallUsage, type ProviderResult, type UsageKind } from '../../providers/provider.ts';
import { recordApiUsage } from '../../spend/usage-recorder.ts';
import { computeBackoffMs } from '../backoff.ts';
import { throwIfAborted, type PipelineContext } from './pipeline-context.ts';

/** Tries per call for faults that pass (per-minute 429, 5xx, timeouts) before the job itself backs off. */
const TRIES_PER_CALL = 4;

/**
 * One provider call as the pipeline makes it: every try is one api_usage row (ok or not, with the
 * stage); per-minute quota and server faults are retried here with capped backoff, honouring a
 * retry delay the provider named; day quota and billing are thrown at once for the queue to pause.
 */
export async function callProvider<T>(ctx: PipelineContext, stage: string, kind: UsageKind, call: () => Promise<ProviderResult<T>>): Promise<T> {
	for (let attempt = 1; ; attempt++) {
		throwIfAborted(ctx.signal);
		try {
			const result = await call();
			await record(ctx, stage, result.usage, true);
			ctx.crashPoint('after_provider_call');
			return result.value;
		} catch (error) {
			const failure = error instanceof ProviderError ? error : new ProviderError('server', errorText(error));
			await record(ctx, stage, { kind, model: 'unknown', ...failure.usage }, false, failure.message);
			const passing = failure.failure === 'rate_minute' || failure.failure === 'server';
			if (!passing || attempt >= TRIES_PER_CALL) throw failure;
			const backoff = computeBackoffMs(attempt, { baseMs: ctx.retryBaseMs, capMs: ctx.retryBaseMs * 16 });
			const wait = Math.max(backoff, Math.min((failure.retryAfterSeconds ?? 0) * 1000, ctx.retryBaseMs * 30));
			ctx.logger.warn({ jobId: ctx.jobId, stage, failure: failure.failure, attempt, waitMs: wait }, 'provider call failed; retrying');
			await ctx.sleep(wait, ctx.signal);
		}
	}
}

async function record(ctx: PipelineContext, stage: string, usage: Partial<CallUsage> & { kind: UsageKind; model: string }, ok: boolean, error?: string): Promise<void> {
	await recordApiUsage(ctx.db, ctx.clock, ctx.prices, { jobId: ctx.jobId, stage, provider: ctx.provider.name, usage, ok, error });
}

function errorText(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
