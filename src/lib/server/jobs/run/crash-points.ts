/**
 * Crash injection for the crash-safety tests (a worker killed at any step still makes exactly one
 * set and sends exactly one link): with NODE_ENV=test and
 * CRASH_AT=<step>, the worker process kills itself with SIGKILL the first time it reaches that step
 * — a precise point that polling from outside could not hit (e.g. between the link edit and its
 * commit). CRASH_MARKER names a file created just before dying, so the restarted worker does not
 * crash at the same step again. Outside test builds this is a no-op.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { BOT_LIMITS, type BotLimits } from '../../telegram/send-budget-rules.ts';

export const CRASH_STEPS = [
	'after_claim',
	'after_provider_call',
	'after_set_created',
	'after_readiness',
	'before_link_commit'
] as const;
/** The guest notices: after Telegram accepted a notice, before its record; after a status edit, before its record. */
export const NOTICE_CRASH_STEPS = ['after_notice_sent', 'after_status_edit'] as const;
/** After the pack was recorded delivered (and the news question queued with it), before anything sends the question. */
export const DELIVERED_CRASH_STEP = 'after_link_commit';
/**
 * The bot's updates (worker/bot/update-poll.ts): after a poll's batch was recorded in the inbox,
 * before the next poll confirms it; after an update's handler ended, before it is marked handled.
 */
export const BOT_UPDATE_CRASH_STEPS = ['after_updates_recorded', 'after_update_handled'] as const;
/** Composite mode only (RENDER_MODE=composite): after the first sticker got the guest's head. */
export const COMPOSITE_CRASH_STEP = 'after_head_pasted';

/**
 * CRASH_JOB=<job id> instead of a marker makes that job a poison pill: the worker dies at the step
 * every time it runs that job (steps that name their job: `after_claim`), however often it restarts.
 */
export type CrashPoint = (step: string, jobId?: number) => void;

export function createCrashPoint(env: NodeJS.ProcessEnv = process.env): CrashPoint {
	const target = env.NODE_ENV === 'test' ? env.CRASH_AT : undefined;
	const marker = env.CRASH_MARKER;
	const poison = env.CRASH_JOB ? Number(env.CRASH_JOB) : undefined;
	if (!target || (!marker && poison === undefined)) return () => undefined;
	return (step, jobId) => {
		if (step !== target) return;
		if (poison !== undefined) {
			if (jobId === poison) process.kill(process.pid, 'SIGKILL');
			return;
		}
		if (!marker || existsSync(marker)) return;
		writeFileSync(marker, step);
		process.kill(process.pid, 'SIGKILL');
	};
}

/**
 * The fleet send-budget test's stalled worker: with NODE_ENV=test and STALL_AFTER_PLACE_MS=<ms>,
 * every place this worker takes in the send budget is followed by that long a wait before its call
 * — a worker the machine holds between its place and its call, on purpose. A no-op otherwise.
 */
export function createPlaceStall(env: NodeJS.ProcessEnv = process.env): () => Promise<void> {
	const ms = env.NODE_ENV === 'test' ? Number(env.STALL_AFTER_PLACE_MS ?? 0) : 0;
	if (!(ms > 0)) return async () => undefined;
	return () => new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The crash tests' killed worker: a send-budget place it took and never settled holds its chat for
 * answerTimeoutMs (35 s), which the restarted worker then waits out before its next message to that
 * guest. With NODE_ENV=test and SEND_ANSWER_TIMEOUT_MS=<ms> the worker's budget frees such a chat
 * after that long instead, so a crash test waits for the rule, not for production's margin. The
 * production limits otherwise.
 */
export function sendLimitsFor(env: NodeJS.ProcessEnv = process.env): BotLimits {
	const ms = env.NODE_ENV === 'test' ? Number(env.SEND_ANSWER_TIMEOUT_MS ?? 0) : 0;
	return ms > 0 ? { ...BOT_LIMITS, answerTimeoutMs: ms } : BOT_LIMITS;
}
