import type { Db } from '../db/client.ts';
import { DAY, type Clock } from '../time/clock.ts';
import { isRole, type OperatorIdentity } from './roles.ts';
import { generateSessionToken, hashSessionToken } from './session-token.ts';

/**
 * Two clocks per session. Sliding: 7 days without use end it; using the console pushes the end back
 * to 7 days (at most once a day, when fewer than 6 remain). Absolute: 30 days after sign-in it ends
 * whatever the use, so a stolen cookie kept alive by its thief still dies. The absolute end is
 * stored on the row when the session is opened and never moves.
 */
export const SESSION_IDLE_LIFETIME_MS = 7 * DAY;
export const SESSION_RENEW_WHEN_UNDER_MS = 6 * DAY;
export const SESSION_ABSOLUTE_LIFETIME_MS = 30 * DAY;

export interface IssuedSession {
	token: string;
	expiresAt: Date;
}

export interface ValidSession {
	operator: OperatorIdentity;
	expiresAt: Date;
	/** True when this check pushed the expiry back: the cookie must be written again. */
	renewed: boolean;
}

/** A fresh token at every sign-in (never reused, so a planted cookie is worthless afterwards). */
export async function createOperatorSession(db: Db, clock: Clock, operatorId: number): Promise<IssuedSession> {
	const token = generateSessionToken();
	const now = clock.now();
	const expiresAt = new Date(now.getTime() + SESSION_IDLE_LIFETIME_MS);
	const absoluteExpiresAt = new Date(now.getTime() + SESSION_ABSOLUTE_LIFETIME_MS);
	await db.operatorSession.create({
		data: {
			id: hashSessionToken(token),
			operatorId,
			createdAt: now.toISOString(),
			expiresAt: expiresAt.toISOString(),
			absoluteExpiresAt: absoluteExpiresAt.toISOString()
		}
	});
	return { token, expiresAt };
}

/**
 * The operator behind a cookie token, or null. Sessions past either end are deleted on sight;
 * sessions of a disabled or removed operator are refused (removal deletes them through the foreign
 * key). A renewal never goes past the absolute end.
 * `renew: false` for checks that cannot write the cookie again (an open live stream): renewing
 * there would push the server's expiry past the browser's cookie, which is then never rewritten.
 */
export async function validateOperatorSession(
	db: Db,
	clock: Clock,
	token: string,
	{ renew = true }: { renew?: boolean } = {}
): Promise<ValidSession | null> {
	if (!/^[a-z2-7]{20,64}$/.test(token)) return null;
	const id = hashSessionToken(token);
	const row = await db.operatorSession.findUnique({ where: { id }, include: { operator: true } });
	if (!row) return null;
	const now = clock.now().getTime();
	const expiresAt = Date.parse(row.expiresAt);
	const absoluteExpiresAt = Date.parse(row.absoluteExpiresAt);
	if (!(expiresAt > now) || !(absoluteExpiresAt > now)) {
		await db.operatorSession.deleteMany({ where: { id } });
		return null;
	}
	const { operator } = row;
	if (operator.disabledAt !== null || !isRole(operator.role)) return null;
	const identity: OperatorIdentity = {
		id: operator.id,
		username: operator.username,
		displayName: operator.displayName,
		role: operator.role
	};
	const renewedAt = Math.min(now + SESSION_IDLE_LIFETIME_MS, absoluteExpiresAt);
	if (!renew || expiresAt - now >= SESSION_RENEW_WHEN_UNDER_MS || renewedAt <= expiresAt)
		return { operator: identity, expiresAt: new Date(expiresAt), renewed: false };
	await db.operatorSession.updateMany({ where: { id }, data: { expiresAt: new Date(renewedAt).toISOString() } });
	return { operator: identity, expiresAt: new Date(renewedAt), renewed: true };
}

/** Sign-out: the session ends on the server, whatever the browser keeps. */
export async function invalidateOperatorSession(db: Db, token: string): Promise<void> {
	await db.operatorSession.deleteMany({ where: { id: hashSessionToken(token) } });
}

export async function invalidateOperatorSessions(db: Db, operatorId: number): Promise<number> {
	const { count } = await db.operatorSession.deleteMany({ where: { operatorId } });
	return count;
}

/**
 * The retention pass: expired sessions would be refused anyway, but they name an operator and keep
 * the table growing. "Expired" is what validateOperatorSession refuses — either end at or before now
 * (`lte`) — so no row outlives the moment the console stops accepting its cookie.
 */
export async function deleteExpiredOperatorSessions(db: Db, clock: Clock): Promise<number> {
	const now = clock.now().toISOString();
	const { count } = await db.operatorSession.deleteMany({
		where: { OR: [{ expiresAt: { lte: now } }, { absoluteExpiresAt: { lte: now } }] }
	});
	return count;
}
