import type { Db } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';
import { hashClientIp } from '../privacy/ip-hash.ts';
import { clearSignInFailures, recordSignInFailure, secondsUntilSignInAllowed, throttleKeysFor } from './login-throttle.ts';
import { createOperatorSession, type IssuedSession } from './operator-session.ts';
import { normaliseUsername } from './operators.ts';
import { verifyAgainstDummy, verifyPassword } from './password.ts';
import { isRole, type OperatorIdentity } from './roles.ts';

export interface SignInDeps {
	db: Db;
	clock: Clock;
	/** Salt for hashing client addresses in the throttle table. */
	ipSalt: string;
}

export interface SignInInput {
	username: string;
	password: string;
	ip: string;
}

export type SignInResult =
	| { ok: true; operator: OperatorIdentity; session: IssuedSession }
	| { ok: false; reason: 'invalid' }
	| { ok: false; reason: 'throttled'; retryAfterSeconds: number };

/**
 * Checks a password and opens a session. Unknown, disabled and wrong-password accounts get the
 * same answer after the same argon2 work; a throttled client gets its wait without any check.
 */
export async function signIn({ db, clock, ipSalt }: SignInDeps, input: SignInInput): Promise<SignInResult> {
	const username = normaliseUsername(input.username);
	const keys = throttleKeysFor(username, hashClientIp(input.ip, ipSalt));
	const wait = await secondsUntilSignInAllowed(db, clock, keys);
	if (wait > 0) return { ok: false, reason: 'throttled', retryAfterSeconds: wait };

	const row = username ? await db.operator.findUnique({ where: { username } }) : null;
	const usable = row !== null && row.disabledAt === null && isRole(row.role);
	const valid = usable ? await verifyPassword(row.passwordHash, input.password) : await verifyAgainstDummy(input.password);
	if (!valid || !row || !isRole(row.role)) {
		await recordSignInFailure(db, clock, keys);
		return { ok: false, reason: 'invalid' };
	}
	await clearSignInFailures(db, keys);
	const session = await createOperatorSession(db, clock, row.id);
	return { ok: true, operator: { id: row.id, username: row.username, displayName: row.displayName, role: row.role }, session };
}

export function describeSignInFailure(result: Exclude<SignInResult, { ok: true }>): string {
	if (result.reason === 'invalid') return 'That username and password do not match. Check both and try again.';
	const minutes = Math.ceil(result.retryAfterSeconds / 60);
	return result.retryAfterSeconds < 90
		? `Too many attempts. Please wait ${result.retryAfterSeconds} seconds and try again.`
		: `Too many attempts. Please wait about ${minutes} minutes and try again.`;
}
