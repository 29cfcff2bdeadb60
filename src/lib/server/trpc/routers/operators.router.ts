import { z } from 'zod';
import { addOperator, changeOperatorRole, listOperators, removeOperator } from '../../auth/operators.ts';
import { ROLES } from '../../auth/roles.ts';
import { changeFeedFor } from '../../console/change-feed.ts';
import { adminProcedure, operatorProcedure, router } from '../init.ts';
import { watchLive } from '../live-view.ts';

/** Operators management: everyone may see who has access; only the owner changes it. */
export const operatorsRouter = router({
	list: operatorProcedure.query(({ ctx }) => listOperators(ctx.db, ctx.clock)),

	watch: operatorProcedure.subscription(({ ctx, signal }) =>
		watchLive(ctx, signal, changeFeedFor(ctx.db, ctx.logger), () => listOperators(ctx.db, ctx.clock))
	),

	add: adminProcedure
		.input(
			z.object({
				username: z.string().max(64),
				displayName: z.string().max(80).optional(),
				role: z.enum(ROLES),
				password: z.string().max(200)
			})
		)
		.mutation(({ ctx, input }) => addOperator(ctx.db, ctx.clock, ctx.actor, input)),

	setRole: adminProcedure
		.input(z.object({ operatorId: z.number().int().positive(), role: z.enum(ROLES) }))
		.mutation(({ ctx, input }) =>
			changeOperatorRole(ctx.db, ctx.clock, { ...ctx.actor, operatorId: ctx.operator.id }, input.operatorId, input.role)
		),

	remove: adminProcedure
		.input(z.object({ operatorId: z.number().int().positive() }))
		.mutation(({ ctx, input }) =>
			removeOperator(ctx.db, ctx.clock, { ...ctx.actor, operatorId: ctx.operator.id }, input.operatorId)
		)
});
