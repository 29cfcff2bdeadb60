import { initTRPC, TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import type { AppContext } from '../web/app-context.ts';
import type { Actor } from '../audit/audit-log.ts';
import { canAct, canManageOperators, type OperatorIdentity } from '../auth/roles.ts';
import { DATABASE_BUSY_MESSAGE, isDatabaseBusy } from '../db/busy.ts';
import { DomainError } from '../errors/domain-error.ts';
import { consoleSentence } from './domain-error-text.ts';
import { errorReference, isUnexpected, unexpectedErrorMessage } from './error-reference.ts';
import { isLiveView } from './live-view.ts';

/**
 * tRPC plumbing: the request context, the error formatter and the procedure tiers. Routers per
 * domain live in routers/ and are composed in root.ts.
 */
export interface TrpcContext extends AppContext {
	request: Request;
	/** The signed-in console operator (from event.locals, resolved in hooks.server.ts). */
	operator?: OperatorIdentity | null;
	/** The client's address, for audit_log. */
	clientIp?: string | null;
	/** The console session cookie's token: live views check it again while they stream. */
	sessionToken: string | null;
}

/** What the route passes from event.locals and the cookie (optional: callers without a request have none). */
export interface TrpcLocals {
	operator?: OperatorIdentity | null;
	clientIp?: string | null;
	sessionToken?: string | null;
}

export function createTrpcContext(app: AppContext, request: Request, locals: TrpcLocals = {}): TrpcContext {
	return {
		...app,
		request,
		operator: locals.operator ?? null,
		clientIp: locals.clientIp ?? null,
		sessionToken: locals.sessionToken ?? null
	};
}

const t = initTRPC.context<TrpcContext>().create({
	errorFormatter({ shape, error }) {
		// Validation problems go back field by field so forms can show them; nothing internal leaks:
		// an unexpected error becomes a sentence with the reference its log line carries.
		const zodError = error.cause instanceof ZodError ? error.cause.flatten() : null;
		const unexpected = isUnexpected(error);
		return {
			...shape,
			message: unexpected ? unexpectedErrorMessage(error) : shape.message,
			data: { ...shape.data, stack: undefined, zodError, requestId: unexpected ? errorReference(error) : undefined }
		};
	}
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
/** Anyone: the health summary, the landing form, kiosk reads guarded by their own capability. */
export const publicProcedure = t.procedure.use(async ({ next }) => {
	const result = await next();
	// A lock held past busy_timeout: the transaction rolled back; answer 503 (+ Retry-After in the route).
	if (!result.ok && isDatabaseBusy(result.error.cause ?? result.error)) {
		throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: DATABASE_BUSY_MESSAGE, cause: result.error });
	}
	return result;
});

// ─── Console tiers ──────────────────────────────────────────────────────────────────────────────
/**
 * Signed in to the console, any role. Viewers are read-only: every mutation through this tier is
 * refused for them here, so a router cannot forget it. A domain's refusal (DomainError) reaches the
 * browser as BAD_REQUEST with its console sentence (domain-error-text.ts). `ctx.actor` is what audit_log records.
 * Every subscription must be a live view (watchLive), which ends when the session does.
 */
export const operatorProcedure = publicProcedure.use(async ({ ctx, type, next }) => {
	const operator = ctx.operator;
	if (!operator) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Please sign in to the console.' });
	if (type === 'mutation' && !canAct(operator.role)) {
		throw new TRPCError({
			code: 'FORBIDDEN',
			message: 'Your role is viewer: you can look at everything but not change it.'
		});
	}
	const actor: Actor = { name: operator.username, ip: ctx.clientIp ?? null };
	const result = await next({ ctx: { ...ctx, operator, actor } });
	if (type === 'subscription' && result.ok && !isLiveView(result.data)) {
		throw new TRPCError({
			code: 'INTERNAL_SERVER_ERROR',
			message: 'a console subscription must return watchLive(…): it would outlive its session'
		});
	}
	if (!result.ok && result.error.cause instanceof DomainError) {
		throw new TRPCError({
			code: 'BAD_REQUEST',
			message: consoleSentence(result.error.cause.refusal),
			cause: result.error.cause
		});
	}
	return result;
});

/** The owner only: managing operators. */
export const adminProcedure = operatorProcedure.use(({ ctx, next }) => {
	if (!canManageOperators(ctx.operator.role))
		throw new TRPCError({ code: 'FORBIDDEN', message: 'Only the owner can do this.' });
	return next();
});
