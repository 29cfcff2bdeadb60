import { resolveBackupDir } from '../../backup/backup-files.ts';
import { changeFeedFor } from '../../console/change-feed.ts';
import { readConsoleHealth } from '../../console/console-health.ts';
import { operatorProcedure, router, type TrpcContext } from '../init.ts';
import { watchLive } from '../live-view.ts';

const deps = (ctx: TrpcContext) => ({
	db: ctx.db,
	clock: ctx.clock,
	database: ctx.config.database,
	backupDir: resolveBackupDir(ctx.config),
	dataDir: ctx.config.dataDir,
	version: ctx.version,
	provider: ctx.config.IMAGE_PROVIDER
});

/** The console's Health page: the details public /health leaves out. */
export const healthRouter = router({
	read: operatorProcedure.query(({ ctx }) => readConsoleHealth(deps(ctx))),

	watch: operatorProcedure.subscription(({ ctx, signal }) =>
		watchLive(ctx, signal, changeFeedFor(ctx.db, ctx.logger), () => readConsoleHealth(deps(ctx)))
	)
});
