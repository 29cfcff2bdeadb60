import { recordAudit, type Actor } from '../audit/audit-log.ts';
import { DomainError } from '../errors/domain-error.ts';
import type { Db } from '../db/client.ts';
import { STICKER_VARIANTS } from '../media/sticker-variants.ts';
import type { Clock } from '../time/clock.ts';

/**
 * sticker_redraw: an operator asks for one sticker of a delivered pack to be drawn
 * again; the worker does the drawing and swaps it into the Telegram set (worker/tasks/sticker-redraws.ts).
 * One redraw per pack at a time, so two swaps never race on the same set; the request and its audit
 * row are written in one transaction.
 */
export async function requestStickerRedraw(
	db: Db,
	clock: Clock,
	actor: Actor,
	input: { jobId: number; stickerNumber: number }
): Promise<number> {
	const { jobId, stickerNumber } = input;
	if (!Number.isInteger(stickerNumber) || stickerNumber < 1 || stickerNumber > STICKER_VARIANTS.length) {
		throw new DomainError({ code: 'StickerOutOfRange', stickerNumber, stickers: STICKER_VARIANTS.length });
	}
	return db.$transaction(async (tx) => {
		const job = await tx.job.findUnique({
			where: { jobId },
			select: { status: true, packName: true, telegramUserId: true }
		});
		if (!job) throw new DomainError({ code: 'JobNotFound', jobId });
		if (job.status !== 'done' || !job.packName)
			throw new DomainError({ code: 'PackNotDelivered', jobId, status: job.status });
		const open = await tx.stickerRedraw.findFirst({ where: { jobId, status: { in: ['queued', 'working'] } } });
		if (open) throw new DomainError({ code: 'RedrawInProgress', stickerNumber: open.stickerNumber });
		const now = clock.now().toISOString();
		const row = await tx.stickerRedraw.create({
			data: { jobId, stickerNumber, status: 'queued', requestedBy: actor.name, createdAt: now, updatedAt: now }
		});
		await recordAudit(tx, clock, actor, {
			action: 'sticker_redraw',
			jobId,
			telegramUserId: job.telegramUserId,
			details: { sticker: stickerNumber, packName: job.packName, requestId: row.id }
		});
		return row.id;
	});
}
