import type { Db } from '../db/client.ts';
import { hashClientIp } from '../privacy/ip-hash.ts';
import type { Clock } from '../time/clock.ts';
import {
	forgetAttempts,
	refundAttempt,
	reserveAttempt,
	secondsUntilAllowed,
	signInRulesFor
} from './login-throttle.ts';
import { createOperatorSession, type IssuedSession } from './operator-session.ts';
import { normaliseUsername } from './operators.ts';
import { tryTakePasswordSlot, type PasswordSlot } from './password.ts';
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

/** When every password slot is taken, the client tries again this soon. */
export const BUSY_RETRY_AFTER_SECONDS = 1;

export type SignInResult =
	| { ok: true; operator: OperatorIdentity; session: IssuedSession }
	| { ok: false; reason: 'invalid' }
	| { ok: false; reason: 'throttled' | 'busy'; retryAfterSeconds: number };

/**
 * Checks a password and opens a session. In order: a throttled client is answered from a cheap read;
 * a password slot is taken (none free: "busy" at once); the attempt is reserved in the throttle
 * table, which is what finally decides; only then does argon2 run. Unknown, disabled and
 * wrong-password accounts get the same answer after the same argon2 work and the same reservation.
 */
export async function signIn({ db, clock, ipSalt }: SignInDeps, input: SignInInput): Promise<SignInResult> {
	const username = normaliseUsername(input.username);
	const rules = signInRulesFor(username, hashClientIp(input.ip, ipSalt));
	const keys = [rules.accountClient.key, rules.client.key];
	const waiting = await secondsUntilAllowed(db, clock, keys);
	if (waiting > 0) return { ok: false, reason: 'throttled', retryAfterSeconds: waiting };

	const slot = tryTakePasswordSlot();
	if (!slot) return { ok: false, reason: 'busy', retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS };
	let operator: OperatorIdentity | null;
	try {
		const wait = await reserveAttempt(db, clock, [rules.accountClient, rules.client]);
		if (wait > 0) return { ok: false, reason: 'throttled', retryAfterSeconds: wait };
		operator = await checkPassword(db, slot, username, input.password);
	} finally {
		slot.release();
	}
	if (!operator) return { ok: false, reason: 'invalid' };
	await forgetAttempts(db, [rules.accountClient.key]);
	await refundAttempt(db, rules.client);
	return { ok: true, operator, session: await createOperatorSession(db, clock, operator.id) };
}

/** The operator when the password is theirs; an unknown or disabled account costs the same check. */
async function checkPassword(
	db: Db,
	slot: PasswordSlot,
	username: string,
	password: string
): Promise<OperatorIdentity | null> {
	const row = username ? await db.operator.findUnique({ where: { username } }) : null;
	const usable = row !== null && row.disabledAt === null && isRole(row.role);
	const valid = await slot.verify(usable ? row.passwordHash : null, password);
	if (!valid || !row || !isRole(row.role)) return null;
	return { id: row.id, username: row.username, displayName: row.displayName, role: row.role };
}

export function describeSignInFailure(result: Exclude<SignInResult, { ok: true }>): string {
	if (result.reason === 'invalid') return 'That username and password do not match. Check both and try again.';
	if (result.reason === 'busy') return 'The console is busy checking other sign-ins. Please try again in a moment.';
	const minutes = Math.ceil(result.retryAfterSeconds / 60);
	return result.retryAfterSeconds < 90
		? `Too many attempts. Please wait ${result.retryAfterSeconds} seconds and try again.`
		: `Too many attempts. Please wait about ${minutes} minutes and try again.`;
}
