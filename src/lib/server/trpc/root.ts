import { createCallerFactory, router } from './init.ts';
import { systemRouter } from './routers/system.router.ts';
import { auditRouter } from './routers/audit.router.ts';
import { authRouter } from './routers/auth.router.ts';
import { consoleRouter } from './routers/console.router.ts';
import { guestsRouter } from './routers/guests.router.ts';
import { healthRouter } from './routers/health.router.ts';
import { jobsRouter } from './routers/jobs.router.ts';
import { operatorsRouter } from './routers/operators.router.ts';
import { spendRouter } from './routers/spend.router.ts';
import { messagesRouter } from './routers/messages.router.ts';
import { leadsRouter } from './routers/leads.router.ts';
import { logsRouter } from './routers/logs.router.ts';
import { apiTokensRouter } from './routers/api-tokens.router.ts';
import { broadcastsRouter } from './routers/broadcasts.router.ts';
import { eventsRouter } from './routers/events.router.ts';
import { kiosksRouter } from './routers/kiosks.router.ts';
import { profileRouter } from './routers/profile.router.ts';
import { settingsRouter } from './routers/settings.router.ts';

/** The typed API of the web process: one router per domain. */
export const appRouter = router({
	system: systemRouter,
	// Operator console (docs/console.md)
	auth: authRouter,
	console: consoleRouter,
	guests: guestsRouter,
	jobs: jobsRouter,
	spend: spendRouter,
	messages: messagesRouter,
	audit: auditRouter,
	operators: operatorsRouter,
	health: healthRouter,
	logs: logsRouter,
	apiTokens: apiTokensRouter,
	broadcasts: broadcastsRouter,
	events: eventsRouter,
	kiosks: kiosksRouter,
	profile: profileRouter,
	settings: settingsRouter,
	// Leads (docs/leads.md)
	leads: leadsRouter
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
