import type { Db } from '../db/client.ts';
import { auditWords } from '../../components/console/audit-words.ts';
import { auditDetailWords } from '../audit/audit-details.ts';
import { stageName } from '../../components/console/job/job-words.ts';
import { providerAnswerWords, type ApiUsageView } from '../../schemas/api-usage-view.ts';

/**
 * The Job page's debug half: the job's events in order (status history) and the provider calls
 * per stage. The stage log itself comes from job_progress, read here with the engine's tolerance.
 */
export interface JobEvent {
	at: string;
	what: string;
}

export interface StageTiming {
	stage: string;
	startedAt: string | null;
	seconds: number | null;
	calls: number;
	failedCalls: number;
	costUsd: number;
}

export interface ProgressRow {
	stage: string;
	detail: string | null;
	stageStartedAt: string;
	stageLog: { stage: string; at: string }[];
}

/**
 * job_progress belongs to the generation engine (its stage and stage_log); read with raw SQL and
 * tolerate its absence or a different shape, so this page never breaks on the engine's changes.
 */
export async function readProgress(db: Db, jobId: number): Promise<ProgressRow | null> {
	try {
		const rows = await db.$queryRaw<
			{ stage: string; detail: string | null; stage_started_at: string; stage_log: string | null }[]
		>`
			SELECT stage, detail, stage_started_at, stage_log FROM job_progress WHERE job_id = ${jobId}`;
		const row = rows[0];
		if (!row) return null;
		return {
			stage: row.stage,
			detail: row.detail,
			stageStartedAt: row.stage_started_at,
			stageLog: parseStageLog(row.stage_log)
		};
	} catch {
		return null;
	}
}

function parseStageLog(raw: string | null): { stage: string; at: string }[] {
	try {
		const parsed: unknown = JSON.parse(raw ?? '[]');
		if (!Array.isArray(parsed)) return [];
		return parsed.filter(
			(e): e is { stage: string; at: string } => typeof e?.stage === 'string' && typeof e?.at === 'string'
		);
	} catch {
		return [];
	}
}

export function buildHistory(
	job: {
		createdAt: string;
		packCreatedAt: string | null;
		linkSentAt: string | null;
		delayNoticeSentAt: string | null;
		status: string;
		updatedAt: string;
	},
	audit: { ts: string; actor: string; action: string; details: string | null }[],
	stageLog: { stage: string; at: string }[],
	usage: ApiUsageView[]
): JobEvent[] {
	const events: JobEvent[] = [{ at: job.createdAt, what: 'queued (the deadlines count from here)' }];
	for (const entry of stageLog) events.push({ at: entry.at, what: stageName(entry.stage) });
	if (job.delayNoticeSentAt)
		events.push({ at: job.delayNoticeSentAt, what: '“taking longer” notice sent to the guest' });
	if (job.packCreatedAt) events.push({ at: job.packCreatedAt, what: 'sticker set created' });
	if (job.linkSentAt) events.push({ at: job.linkSentAt, what: 'link sent to the guest' });
	for (const entry of audit) {
		const details = auditDetailWords(entry.action, entry.details);
		events.push({
			at: entry.ts,
			what: `${auditWords(entry.action)} by ${entry.actor}${details ? `: ${details}` : ''}`
		});
	}
	const failures = usage.filter((u) => !u.ok);
	for (const failure of failures.slice(-5))
		events.push({
			at: failure.ts,
			what: `image model call failed while ${stageName(failure.stage ?? failure.kind).toLowerCase()}${failure.httpStatus ? `: ${providerAnswerWords(failure.httpStatus)}` : ''}`
		});
	if (job.status === 'done' || job.status === 'failed')
		events.push({ at: job.updatedAt, what: job.status === 'done' ? 'finished' : 'failed for good' });
	return events.sort((a, b) => a.at.localeCompare(b.at));
}

/** Stage durations from the engine's stage log when present, else from the provider calls per stage. */
export function buildStageTimings(stageLog: { stage: string; at: string }[], usage: ApiUsageView[]): StageTiming[] {
	const names = [...new Set([...stageLog.map((e) => e.stage), ...usage.map((u) => u.stage ?? u.kind)])];
	return names.map((stage) => {
		const index = stageLog.findIndex((e) => e.stage === stage);
		const calls = usage.filter((u) => (u.stage ?? u.kind) === stage);
		const startedAt: string | null = index >= 0 ? stageLog[index]!.at : (calls[0]?.ts ?? null);
		let seconds: number | null = null;
		const next = index >= 0 ? stageLog[index + 1] : undefined;
		if (index >= 0 && next) seconds = (Date.parse(next.at) - Date.parse(stageLog[index]!.at)) / 1000;
		else if (calls.length > 1) seconds = (Date.parse(calls.at(-1)!.ts) - Date.parse(calls[0]!.ts)) / 1000;
		return {
			stage,
			startedAt,
			seconds,
			calls: calls.length,
			failedCalls: calls.filter((c) => !c.ok).length,
			costUsd: calls.reduce((sum, c) => sum + c.costUsd, 0)
		};
	});
}
