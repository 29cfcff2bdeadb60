import { readPublicHealth } from '../../health/health.ts';
import { publicProcedure, router } from '../init.ts';

export const systemRouter = router({
	/** The same report as GET /health (status only), typed for the browser. */
	health: publicProcedure.query(async ({ ctx }) => (await readPublicHealth(ctx)).health)
});
