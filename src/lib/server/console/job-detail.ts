import type { Db } from '../db/client.ts';
import type { FileStore } from '../files/file-store.ts';
import { packLink } from '../jobs/delivery/pack-name.ts';
import { listJobArtefacts, listStickers, readJsonArtefact, type ArtefactFile } from './artefact-files.ts';
import { guestLabel } from './guest-label.ts';
import { auditWords } from '../../components/console/audit-words.ts';
import { providerAnswerWords, type ApiUsageView } from '../../schemas/api-usage-view.ts';
import { readRefusal } from '../providers/gemini/gemini-refusals.ts';
import { summarisePackCost, type PackCost } from '../spend/pack-cost.ts';
import { FINISHED_JOB_STATUSES, jobStatusSchema, type JobStatus } from '../../schemas/job-status.ts';
import { readGuestMessages, stickerVerdictRows, type GuestMessage, type StickerVerdictRow } from './job-verdicts.ts';
import { listJobNotices, type NoticeView } from '../jobs/guest-notices.repository.ts';

/** The Job page: everything an operator needs to understand one pack, good or bad. */
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

export interface ProviderRefusal {
	at: string;
	stage: string;
	failure: 'blocked' | 'refused';
	reason: string;
	message: string;
}

/** Kept under its old name for the console's server code. */
export type UsageRow = ApiUsageView;

export interface JobDetail {
	job: {
		jobId: number;
		status: JobStatus;
		guest: string;
		telegramUserId: string;
		sessionToken: string;
		templateId: string;
		providerUsed: string | null;
		attempts: number;
		error: string | null;
		packName: string | null;
		packLink: string | null;
		renderMode: string | null;
		artStyle: string | null;
		hasAppearanceCard: boolean;
		createdAt: string;
		updatedAt: string;
	};
	progress: { stage: string; detail: string | null; stageStartedAt: string } | null;
	history: JobEvent[];
	stages: StageTiming[];
	usage: UsageRow[];
	totalCostUsd: number;
	/** The pack's cost: calls, image generations, tokens and dollars. */
	cost: PackCost;
	/** Answers the provider stopped short of (blocked: asked again softened) or refused, with why. */
	refusals: ProviderRefusal[];
	/** The size each drawn image came back at, call by call. */
	drawnImages: { stage: string; resolution: string }[];
	anchor: ArtefactFile | null;
	sheets: ArtefactFile[];
	diagnoses: { name: string; content: unknown }[];
	consistency: unknown;
	likeness: unknown;
	/** Operators' redraws of single stickers, newest first. */
	redraws: {
		id: number;
		stickerNumber: number;
		status: string;
		requestedBy: string;
		error: string | null;
		createdAt: string;
		updatedAt: string;
	}[];
	stickers: ArtefactFile[];
	/** Per sticker: the local gate's and the provider review's verdicts, joined (from the two files above). */
	verdicts: StickerVerdictRow[];
	/** The guest's chat with the bot in the job's time window. */
	guestMessages: GuestMessage[];
	/** What the worker owed the guest about this job (guest_notices): each notice's state, attempts and last error. */
	notices: NoticeView[];
}

export async function readJobDetail(db: Db, files: FileStore, jobId: number): Promise<JobDetail | null> {
	const job = await db.job.findUnique({ where: { jobId } });
	if (!job) return null;
	const finished = (FINISHED_JOB_STATUSES as readonly string[]).includes(job.status);
	const [user, usageRows, audit, progress, artefacts, stickers, redraws, guestMessages, notices] = await Promise.all([
		db.user.findUnique({ where: { telegramUserId: job.telegramUserId } }),
		db.apiUsage.findMany({ where: { jobId }, orderBy: { id: 'asc' } }),
		db.auditLog.findMany({ where: { jobId }, orderBy: { id: 'asc' }, take: 100 }),
		readProgress(db, jobId),
		listJobArtefacts(files, jobId),
		listStickers(files, job.sessionToken),
		db.stickerRedraw.findMany({
			where: { jobId },
			orderBy: { id: 'desc' },
			take: 50,
			select: {
				id: true,
				stickerNumber: true,
				status: true,
				requestedBy: true,
				error: true,
				createdAt: true,
				updatedAt: true
			}
		}),
		readGuestMessages(db, {
			telegramUserId: job.telegramUserId,
			createdAt: job.createdAt,
			updatedAt: job.updatedAt,
			finished
		}),
		listJobNotices(db, jobId)
	]);
	const usage = usageRows.map(toUsageRow);
	const prefix = `job${jobId}_`;
	const jsons = artefacts.filter((f) => f.kind === 'json');
	const readNamed = async (suffix: string) => {
		const file = jsons.find((f) => f.name === `${prefix}${suffix}.json`);
		return file ? readJsonArtefact(files, file.name) : null;
	};
	const [consistency, likeness] = await Promise.all([readNamed('consistency'), readNamed('likeness')]);
	const others = jsons.filter((f) => !/_(consistency|likeness)\.json$/.test(f.name)).slice(0, 40);
	return {
		job: {
			jobId: job.jobId,
			status: jobStatusSchema.parse(job.status),
			guest: guestLabel(user, job.telegramUserId),
			telegramUserId: job.telegramUserId.toString(),
			sessionToken: job.sessionToken,
			templateId: job.templateId,
			providerUsed: job.providerUsed,
			attempts: job.attempts,
			error: job.error,
			packName: job.packName,
			packLink: job.packName ? packLink(job.packName) : null,
			renderMode: job.renderMode,
			artStyle: job.artStyle,
			hasAppearanceCard: job.appearanceJson !== null,
			createdAt: job.createdAt,
			updatedAt: job.updatedAt
		},
		progress: progress && { stage: progress.stage, detail: progress.detail, stageStartedAt: progress.stageStartedAt },
		history: buildHistory(job, audit, progress?.stageLog ?? [], usage),
		stages: buildStageTimings(progress?.stageLog ?? [], usage),
		usage,
		totalCostUsd: usage.reduce((sum, row) => sum + row.costUsd, 0),
		cost: summarisePackCost(usage),
		refusals: refusalsIn(usage),
		drawnImages: usage
			.filter((u) => u.ok && u.kind === 'image' && u.resolution)
			.map((u) => ({ stage: u.stage ?? u.kind, resolution: u.resolution! })),
		anchor: artefacts.find((f) => f.kind === 'image' && f.name === `${prefix}anchor.png`) ?? null,
		sheets: artefacts.filter((f) => f.kind === 'image' && f.name !== `${prefix}anchor.png`),
		diagnoses: await Promise.all(
			others.map(async (f) => ({ name: f.name, content: await readJsonArtefact(files, f.name) }))
		),
		consistency,
		likeness,
		stickers,
		redraws,
		verdicts: stickerVerdictRows(consistency, likeness),
		guestMessages,
		notices
	};
}

function toUsageRow(row: Awaited<ReturnType<Db['apiUsage']['findMany']>>[number]): UsageRow {
	return {
		id: row.id,
		ts: row.ts,
		stage: row.stage,
		kind: row.kind,
		provider: row.provider,
		model: row.model,
		ok: row.ok === 1,
		httpStatus: row.httpStatus,
		error: row.error,
		images: row.images,
		promptTokens: row.promptTokens,
		outputTokens: row.outputTokens,
		imageTokens: row.imageTokens,
		thoughtsTokens: row.thoughtsTokens,
		resolution: row.resolution,
		costUsd: row.estCostUsd
	};
}

function refusalsIn(usage: UsageRow[]): ProviderRefusal[] {
	return usage.flatMap((u) => {
		const refusal = u.ok ? null : readRefusal(u.error);
		return refusal ? [{ at: u.ts, stage: u.stage ?? u.kind, ...refusal, message: u.error ?? '' }] : [];
	});
}

interface ProgressRow {
	stage: string;
	detail: string | null;
	stageStartedAt: string;
	stageLog: { stage: string; at: string }[];
}

/**
 * job_progress belongs to the generation engine (its stage and stage_log); read with raw SQL and
 * tolerate its absence or a different shape, so this page never breaks on the engine's changes.
 */
async function readProgress(db: Db, jobId: number): Promise<ProgressRow | null> {
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

function buildHistory(
	job: {
		createdAt: string;
		packCreatedAt: string | null;
		linkSentAt: string | null;
		delayNoticeSentAt: string | null;
		status: string;
		updatedAt: string;
	},
	audit: { ts: string; actor: string; action: string }[],
	stageLog: { stage: string; at: string }[],
	usage: UsageRow[]
): JobEvent[] {
	const events: JobEvent[] = [{ at: job.createdAt, what: 'queued (the deadlines count from here)' }];
	for (const entry of stageLog) events.push({ at: entry.at, what: `stage: ${entry.stage}` });
	if (job.delayNoticeSentAt)
		events.push({ at: job.delayNoticeSentAt, what: '“taking longer” notice sent to the guest' });
	if (job.packCreatedAt) events.push({ at: job.packCreatedAt, what: 'sticker set created' });
	if (job.linkSentAt) events.push({ at: job.linkSentAt, what: 'link sent to the guest' });
	for (const entry of audit) events.push({ at: entry.ts, what: `${auditWords(entry.action)} by ${entry.actor}` });
	const failures = usage.filter((u) => !u.ok);
	for (const failure of failures.slice(-5))
		events.push({
			at: failure.ts,
			what: `image model call failed at ${failure.stage ?? failure.kind}${failure.httpStatus ? `: ${providerAnswerWords(failure.httpStatus)}` : ''}`
		});
	if (job.status === 'done' || job.status === 'failed') events.push({ at: job.updatedAt, what: `now ${job.status}` });
	return events.sort((a, b) => a.at.localeCompare(b.at));
}

/** Stage durations from the engine's stage log when present, else from the provider calls per stage. */
function buildStageTimings(stageLog: { stage: string; at: string }[], usage: UsageRow[]): StageTiming[] {
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
