import type { Db } from '../db/client.ts';
import type { FileStore } from '../files/file-store.ts';
import { packLink } from '../jobs/delivery/pack-name.ts';
import { listJobArtefacts, listStickers, readJsonArtefact, type ArtefactFile } from './artefact-files.ts';
import { guestLabel } from './guest-label.ts';
import type { ApiUsageView } from '../../schemas/api-usage-view.ts';
import { buildHistory, buildStageTimings, readProgress, type JobEvent, type StageTiming } from './job-history.ts';
import { readRefusal } from '../providers/gemini/gemini-refusals.ts';
import { summarisePackCost, type PackCost } from '../spend/pack-cost.ts';
import { FINISHED_JOB_STATUSES, jobStatusSchema, type JobStatus } from '../../schemas/job-status.ts';
import { readGuestMessages, stickerVerdictRows, type GuestMessage, type StickerVerdictRow } from './job-verdicts.ts';
import { listJobNotices, type NoticeView } from '../jobs/guest-notices.repository.ts';

export type { JobEvent, StageTiming };

/** The Job page: everything an operator needs to understand one pack, good or bad. */
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
		/** When the link reached the guest's chat (the photo→link time ends here); null until then. */
		linkSentAt: string | null;
	};
	progress: { stage: string; detail: string | null; stageStartedAt: string } | null;
	history: JobEvent[];
	/** The stages in the order the worker entered them (job_progress.stage_log): the page's timeline. */
	stageLog: { stage: string; at: string }[];
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
			updatedAt: job.updatedAt,
			linkSentAt: job.linkSentAt
		},
		progress: progress && { stage: progress.stage, detail: progress.detail, stageStartedAt: progress.stageStartedAt },
		stageLog: progress?.stageLog ?? [],
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
