/**
 * "The database stayed locked longer than busy_timeout". The transaction that
 * hit it rolled back, so nothing was half-written; the request is answered 503 with Retry-After
 * and a human sentence, and the next request works once the lock is gone.
 */
export const DATABASE_BUSY_RETRY_AFTER_SECONDS = 5;
export const DATABASE_BUSY_MESSAGE = 'We are very busy for a moment. Please try again in a few seconds.';

/** Prisma reports SQLITE_BUSY as P1008 with the driver's code in `meta`; tRPC and others wrap it in `cause`. */
export function isDatabaseBusy(error: unknown): boolean {
	let current: unknown = error;
	for (let depth = 0; current && depth < 6; depth++) {
		const candidate = current as { code?: unknown; message?: unknown; meta?: unknown; cause?: unknown };
		if (candidate.code === 'P1008' || candidate.code === 'SQLITE_BUSY') return true;
		if (typeof candidate.message === 'string' && /SQLITE_BUSY|database is locked/i.test(candidate.message)) return true;
		if (candidate.meta && /SQLITE_BUSY/.test(JSON.stringify(candidate.meta))) return true;
		current = candidate.cause;
	}
	return false;
}
