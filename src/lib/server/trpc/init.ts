import { initTRPC } from '@trpc/server';
import { ZodError } from 'zod';
import type { AppContext } from '../web/app-context.ts';

/**
 * tRPC plumbing: the request context, the error formatter and the procedure tiers. Routers per
 * domain live in routers/ and are composed in root.ts.
 */
export interface TrpcContext extends AppContext {
	request: Request;
}

export function createTrpcContext(app: AppContext, request: Request): TrpcContext {
	return { ...app, request };
}

const t = initTRPC.context<TrpcContext>().create({
	errorFormatter({ shape, error }) {
		// Validation problems go back field by field so forms can show them; nothing internal leaks.
		const zodError = error.cause instanceof ZodError ? error.cause.flatten() : null;
		return { ...shape, data: { ...shape.data, stack: undefined, zodError } };
	}
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
/** Anyone: the health summary, the landing form, kiosk reads guarded by their own capability. */
export const publicProcedure = t.procedure;
