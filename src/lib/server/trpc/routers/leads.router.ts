import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { LEAD_STATUSES } from '../../../schemas/lead-status.ts';
import { eraseLead } from '../../leads/lead-erasure.ts';
import { CONSOLE_ACTOR_ID, setLeadStatus } from '../../leads/lead-status.ts';
import { leadsChangeFeed, listLeads, readLeadDetail } from '../../leads/leads-console.ts';
import { operatorProcedure, router } from '../init.ts';
import { watchLive } from '../live-view.ts';

/** The console's Leads page: table with filters, a lead's card, status change and erasure. */
const filters = z.object({
	status: z.enum(LEAD_STATUSES).optional(),
	search: z.string().max(100).default(''),
	days: z.number().int().min(1).max(3650).optional()
});
const leadId = z.object({ id: z.number().int().positive() });

async function detailOrThrow(ctx: { db: Parameters<typeof readLeadDetail>[0] }, id: number) {
	const detail = await readLeadDetail(ctx.db, id);
	if (!detail) throw new TRPCError({ code: 'NOT_FOUND', message: `There is no lead #${id}.` });
	return detail;
}

export const leadsRouter = router({
	list: operatorProcedure.input(filters).query(({ ctx, input }) => listLeads(ctx.db, input, ctx.clock.now())),

	watch: operatorProcedure
		.input(filters)
		.subscription(({ ctx, input, signal }) =>
			watchLive(ctx, signal, leadsChangeFeed(ctx.db, ctx.logger), () => listLeads(ctx.db, input, ctx.clock.now()))
		),

	detail: operatorProcedure.input(leadId).query(({ ctx, input }) => detailOrThrow(ctx, input.id)),

	watchDetail: operatorProcedure
		.input(leadId)
		.subscription(({ ctx, input, signal }) =>
			watchLive(ctx, signal, leadsChangeFeed(ctx.db, ctx.logger), () => readLeadDetail(ctx.db, input.id))
		),

	/** Audited in the change's own transaction. Recorded as status_by = 0 (not a Telegram user), status_by_name = "console: <operator>"; the worker edits the card. */
	setStatus: operatorProcedure
		.input(leadId.extend({ status: z.enum(LEAD_STATUSES) }))
		.mutation(async ({ ctx, input }) => {
			const actor = { telegramUserId: CONSOLE_ACTOR_ID, name: `console: ${ctx.operator.username}` };
			const change = await setLeadStatus(ctx, input.id, input.status, actor, { actor: ctx.actor });
			if (change.outcome === 'not_found')
				throw new TRPCError({ code: 'NOT_FOUND', message: `There is no lead #${input.id}.` });
			ctx.logger.info(
				{ leadId: input.id, status: input.status, outcome: change.outcome, by: ctx.operator.username },
				'lead status set in the console'
			);
			return { outcome: change.outcome };
		}),

	erase: operatorProcedure.input(leadId).mutation(async ({ ctx, input }) => {
		const result = await eraseLead(ctx, input.id, { actor: ctx.actor });
		if (result.outcome === 'not_found')
			throw new TRPCError({ code: 'NOT_FOUND', message: `There is no lead #${input.id}.` });
		ctx.logger.info(
			{ leadId: input.id, outcome: result.outcome, by: ctx.operator.username },
			'lead erased in the console'
		);
		return result;
	})
});
