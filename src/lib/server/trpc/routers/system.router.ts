import { readHealth } from '../../health/health.service.ts';
import { publicProcedure, router } from '../init.ts';

export const systemRouter = router({
	/** The same report as GET /health, typed for the browser. */
	health: publicProcedure.query(({ ctx }) => readHealth(ctx))
});
