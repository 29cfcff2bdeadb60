import { z } from 'zod';
import { listAuditActors, listAuditEntries } from '../../audit/audit-query.ts';
import { AUDIT_ACTIONS } from '../../audit/audit-log.ts';
import { changeFeedFor } from '../../console/change-feed.ts';
import { operatorProcedure, router } from '../init.ts';
import { watchLive } from '../live-view.ts';
import type { Db } from '../../db/client.ts';

const filter = z.object({
	action: z.string().max(40).optional(),
	actor: z.string().max(64).optional(),
	subject: z.string().max(24).optional(),
	limit: z.number().int().min(1).max(500).default(100)
});

async function readAuditPage(db: Db, input: z.infer<typeof filter>) {
	const [entries, actors] = await Promise.all([listAuditEntries(db, input), listAuditActors(db)]);
	return { entries, actors, actions: [...AUDIT_ACTIONS] };
}

export const auditRouter = router({
	list: operatorProcedure.input(filter).query(({ ctx, input }) => readAuditPage(ctx.db, input)),

	watch: operatorProcedure
		.input(filter)
		.subscription(({ ctx, input, signal }) =>
			watchLive(ctx, signal, changeFeedFor(ctx.db, ctx.logger), () => readAuditPage(ctx.db, input))
		)
});
