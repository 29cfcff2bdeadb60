import { MigrationError } from '../migrations/safe-migrate.ts';

/**
 * The database named by DATABASE_URL cannot be used: unreachable, wrong credentials, no such
 * database. A MigrationError, so every entry point's start-up handler (which prints a
 * MigrationError as its message alone and refuses to start) treats it the same way.
 */
export class DatabaseConnectError extends MigrationError {
	override name = 'DatabaseConnectError';
}

/** host:port, user and database of a postgresql:// URL — never its password. */
export function describeTarget(url: string): { hostPort: string; user: string; database: string } {
	const parsed = new URL(url);
	return {
		hostPort: `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}`,
		user: decodeURIComponent(parsed.username) || '(none)',
		database: decodeURIComponent(parsed.pathname.replace(/^\//, '')) || '(default)'
	};
}

const UNREACHABLE = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'ETIMEDOUT',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ECONNRESET'
]);
/** SQLSTATE classes the server answers a refused sign-in with (invalid_password, invalid_authorization_specification). */
const REFUSED_SIGN_IN = new Set(['28P01', '28000']);

function errorCode(error: unknown): string | undefined {
	const e = error as { code?: string; errors?: { code?: string }[] };
	return e.code ?? e.errors?.find((inner) => inner.code)?.code;
}

/** One line for a failed connection, naming what the operator has to check. */
export function connectErrorFor(url: string, error: unknown): DatabaseConnectError {
	const { hostPort, user, database } = describeTarget(url);
	const code = errorCode(error);
	const message = (error as Error).message?.split('\n')[0] ?? String(error);
	if (code && UNREACHABLE.has(code)) {
		return new DatabaseConnectError(
			`cannot reach PostgreSQL at ${hostPort} (${code}): check the host and port in DATABASE_URL and that the server is running`
		);
	}
	if (/timeout/i.test(message))
		return new DatabaseConnectError(
			`cannot reach PostgreSQL at ${hostPort} (no answer in time): check the host and port in DATABASE_URL`
		);
	if (code && REFUSED_SIGN_IN.has(code)) {
		return new DatabaseConnectError(
			`PostgreSQL at ${hostPort} refused user "${user}" (${message}): check the user and password in DATABASE_URL`
		);
	}
	if (code === '3D000')
		return new DatabaseConnectError(
			`PostgreSQL at ${hostPort} has no database "${database}": create it or fix DATABASE_URL`
		);
	return new DatabaseConnectError(`PostgreSQL at ${hostPort} as user "${user}": ${message}`);
}
