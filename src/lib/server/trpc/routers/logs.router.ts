import { z } from 'zod';
import { changeFeedFor } from '../../console/change-feed.ts';
import { listLogEntries } from '../../log/log-query.ts';
import { LOG_KEEP_DAYS, LOG_KEEP_ROWS } from '../../log/log-retention.ts';
import { listWorkerLaunches } from '../../workers/launch-history.ts';
import { operatorProcedure, router, type TrpcContext } from '../init.ts';
import { watchLive } from '../live-view.ts';

const filter = z.object({
	process: z.enum(['web', 'worker']).optional(),
	level: z.enum(['warn', 'error']).optional(),
	search: z.string().max(200).optional(),
	workerId: z.string().max(200).optional(),
	limit: z.number().int().min(1).max(500).default(200)
});

/** The Logs page: the worker's launch history on top, the stored warnings and errors below. */
async function readLogsPage(ctx: TrpcContext, input: z.infer<typeof filter>) {
	const [launches, logs] = await Promise.all([listWorkerLaunches(ctx.db, ctx.clock), listLogEntries(ctx.db, input)]);
	return { launches, ...logs, keep: { days: LOG_KEEP_DAYS, rows: LOG_KEEP_ROWS } };
}

export const logsRouter = router({
	launches: operatorProcedure.query(({ ctx }) => listWorkerLaunches(ctx.db, ctx.clock)),
	list: operatorProcedure.input(filter).query(({ ctx, input }) => listLogEntries(ctx.db, input)),

	watch: operatorProcedure
		.input(filter)
		.subscription(({ ctx, input, signal }) =>
			watchLive(ctx, signal, changeFeedFor(ctx.db, ctx.logger), () => readLogsPage(ctx, input))
		)
});
