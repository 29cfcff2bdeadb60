import type { Db } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';

/**
 * The live stage of a job (job_progress), readable by the kiosk, the bot and the console.
 * Stages, in order: queued → passport → anchor → anchor_verify → sheet → cut → regen → heads → qa →
 * animate → delivering → uploading → ready → done | failed. stage_log keeps [{stage, at}] for stage timings.
 */
export type JobStage =
	| 'queued'
	| 'passport'
	| 'anchor'
	| 'anchor_verify'
	| 'sheet'
	| 'cut'
	| 'regen'
	| 'heads'
	| 'qa'
	| 'animate'
	| 'delivering'
	| 'uploading'
	| 'ready'
	| 'done'
	| 'failed';

export interface JobProgressView {
	stage: JobStage;
	detail: string | null;
	stageStartedAt: string;
	stickersReadyAt: string | null;
	linkChatId: bigint | null;
	linkMessageId: bigint | null;
}

export async function recordStage(
	db: Db,
	clock: Clock,
	jobId: number,
	stage: JobStage,
	detail: string | null = null
): Promise<void> {
	const at = clock.now().toISOString();
	const current = await db.jobProgress.findUnique({ where: { jobId }, select: { stage: true, stageLog: true } });
	const log = parseLog(current?.stageLog);
	if (current?.stage !== stage) log.push({ stage, at });
	const stageLog = JSON.stringify(log.slice(-60));
	await db.jobProgress.upsert({
		where: { jobId },
		create: { jobId, stage, detail, stageStartedAt: at, updatedAt: at, stageLog },
		update: { stage, detail, updatedAt: at, stageLog, ...(current?.stage !== stage ? { stageStartedAt: at } : {}) }
	});
}

export async function readJobProgress(db: Db, jobId: number): Promise<JobProgressView | null> {
	const row = await db.jobProgress.findUnique({ where: { jobId } });
	if (!row) return null;
	return {
		stage: row.stage as JobStage,
		detail: row.detail,
		stageStartedAt: row.stageStartedAt,
		stickersReadyAt: row.stickersReadyAt,
		linkChatId: row.linkChatId,
		linkMessageId: row.linkMessageId
	};
}

export async function markStickersReady(db: Db, clock: Clock, jobId: number): Promise<void> {
	await db.jobProgress.update({ where: { jobId }, data: { stickersReadyAt: clock.now().toISOString() } });
}

/** The message that will carry the link, recorded before its text is set (see delivery/send-link.ts). */
export async function recordLinkMessage(db: Db, jobId: number, chatId: bigint, messageId: bigint): Promise<void> {
	await db.jobProgress.update({ where: { jobId }, data: { linkChatId: chatId, linkMessageId: messageId } });
}

function parseLog(raw: string | null | undefined): { stage: string; at: string }[] {
	try {
		const value = JSON.parse(raw ?? '[]') as unknown;
		return Array.isArray(value) ? (value as { stage: string; at: string }[]) : [];
	} catch {
		return [];
	}
}
