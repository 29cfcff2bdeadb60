import { z } from 'zod';
import { changeFeedFor } from '../../console/change-feed.ts';
import { setBalanceOverride } from '../../spend/balance.ts';
import { readSpendSummary } from '../../spend/spend-summary.ts';
import { operatorProcedure, router } from '../init.ts';
import { watchLive } from '../live-view.ts';

const window = z.object({ days: z.number().int().min(1).max(90).default(14) });

export const spendRouter = router({
	summary: operatorProcedure.input(window).query(({ ctx, input }) => readSpendSummary(ctx.db, ctx.clock, input.days)),

	watch: operatorProcedure
		.input(window)
		.subscription(({ ctx, input, signal }) =>
			watchLive(ctx, signal, changeFeedFor(ctx.db, ctx.logger), () => readSpendSummary(ctx.db, ctx.clock, input.days))
		),

	setBalance: operatorProcedure.input(z.object({ valueUsd: z.number().finite() })).mutation(async ({ ctx, input }) => {
		await setBalanceOverride(ctx.db, ctx.clock, ctx.actor, input.valueUsd);
		return { ok: true };
	})
});
