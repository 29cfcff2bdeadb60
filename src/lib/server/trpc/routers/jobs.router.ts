import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { changeFeedFor } from '../../console/change-feed.ts';
import { readJobDetail } from '../../console/job-detail.ts';
import { retryJob } from '../../jobs/job-retry.ts';
import type { JobStatus } from '../../../schemas/job-status.ts';
import { requestStickerRedraw } from '../../jobs/sticker-redraw-request.ts';
import { operatorProcedure, router } from '../init.ts';
import { watchLive } from '../live-view.ts';

const jobId = z.object({ jobId: z.number().int().positive() });

export const jobsRouter = router({
	detail: operatorProcedure.input(jobId).query(async ({ ctx, input }) => {
		const detail = await readJobDetail(ctx.db, ctx.fileStore, input.jobId);
		if (!detail)
			throw new TRPCError({
				code: 'NOT_FOUND',
				message: `Job ${input.jobId} does not exist (the guest may have been reset).`
			});
		return detail;
	}),

	/** Yields null once the job is gone (reset), so the page can say so instead of going blank. */
	watchDetail: operatorProcedure
		.input(jobId)
		.subscription(({ ctx, input, signal }) =>
			watchLive(ctx, signal, changeFeedFor(ctx.db, ctx.logger), () => readJobDetail(ctx.db, ctx.fileStore, input.jobId))
		),

	retry: operatorProcedure.input(jobId).mutation(async ({ ctx, input }) => {
		await retryJob(ctx.db, ctx.clock, ctx.actor, input.jobId);
		return { jobId: input.jobId, status: 'queued' as const satisfies JobStatus };
	}),

	/** One sticker of a delivered pack drawn again and swapped in by the worker. */
	redrawSticker: operatorProcedure
		.input(jobId.extend({ stickerNumber: z.number().int().min(1).max(12) }))
		.mutation(async ({ ctx, input }) => {
			const requestId = await requestStickerRedraw(ctx.db, ctx.clock, ctx.actor, input);
			return { requestId, status: 'queued' as const };
		})
});
