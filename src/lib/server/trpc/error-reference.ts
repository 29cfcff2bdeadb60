import { randomBytes } from 'node:crypto';
import type { TRPCError } from '@trpc/server';
import type { Logger } from '../log/logger.ts';

/**
 * Unexpected failures (a Prisma error, a bug) never show their own text to an operator: their
 * message can name tables, columns, file paths or SQL. The operator gets one sentence and a short
 * reference; the web log's error line carries the same reference next to the real error, so the
 * person on call finds it with `grep <reference>`. Deliberate refusals (NOT_FOUND, FORBIDDEN,
 * domain refusals, input validation) keep their own sentences.
 */
export const UNEXPECTED_ERROR_SENTENCE = 'Something went wrong on our side. Please try again.';

const references = new WeakMap<TRPCError, string>();
const logged = new WeakSet<TRPCError>();

export function isUnexpected(error: TRPCError): boolean {
	return error.code === 'INTERNAL_SERVER_ERROR';
}

/** The same reference for the same error, however often tRPC formats or reports it. */
export function errorReference(error: TRPCError): string {
	let reference = references.get(error);
	if (!reference) references.set(error, (reference = randomBytes(6).toString('hex')));
	return reference;
}

export function unexpectedErrorMessage(error: TRPCError): string {
	return `${UNEXPECTED_ERROR_SENTENCE} (reference ${errorReference(error)})`;
}

/** One error line per unexpected failure (tRPC reports a failed stream twice: at the call and in the stream). */
export function logUnexpectedError(logger: Logger, error: TRPCError, path: string | undefined): void {
	if (!isUnexpected(error) || logged.has(error)) return;
	logged.add(error);
	logger.error({ err: error.cause ?? error, path, requestId: errorReference(error) }, 'tRPC call failed');
}
