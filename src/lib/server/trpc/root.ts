import { createCallerFactory, router } from './init.ts';
import { systemRouter } from './routers/system.router.ts';

/** The typed API of the web process: one router per domain. */
export const appRouter = router({
	system: systemRouter
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
