import type { Db } from '../db/client.ts';
import { DAY, type Clock } from '../time/clock.ts';
import { isRole, type OperatorIdentity } from './roles.ts';
import { generateSessionToken, hashSessionToken } from './session-token.ts';

/** Sliding expiry: a session lives 30 days and is pushed back to 30 when fewer than 15 remain. */
export const SESSION_LIFETIME_MS = 30 * DAY;
export const SESSION_RENEW_WHEN_UNDER_MS = 15 * DAY;

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
	const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
	await db.operatorSession.create({
		data: { id: hashSessionToken(token), operatorId, createdAt: now.toISOString(), expiresAt: expiresAt.toISOString() }
	});
	return { token, expiresAt };
}

/**
 * The operator behind a cookie token, or null. Expired sessions are deleted on sight; sessions of a
 * disabled or removed operator are refused (removal deletes them through the foreign key).
 */
export async function validateOperatorSession(db: Db, clock: Clock, token: string): Promise<ValidSession | null> {
	if (!/^[a-z2-7]{20,64}$/.test(token)) return null;
	const id = hashSessionToken(token);
	const row = await db.operatorSession.findUnique({ where: { id }, include: { operator: true } });
	if (!row) return null;
	const now = clock.now().getTime();
	const expiresAt = Date.parse(row.expiresAt);
	if (!(expiresAt > now)) {
		await db.operatorSession.deleteMany({ where: { id } });
		return null;
	}
	const { operator } = row;
	if (operator.disabledAt !== null || !isRole(operator.role)) return null;
	const identity: OperatorIdentity = { id: operator.id, username: operator.username, displayName: operator.displayName, role: operator.role };
	if (expiresAt - now >= SESSION_RENEW_WHEN_UNDER_MS) return { operator: identity, expiresAt: new Date(expiresAt), renewed: false };
	const renewedAt = new Date(now + SESSION_LIFETIME_MS);
	await db.operatorSession.updateMany({ where: { id }, data: { expiresAt: renewedAt.toISOString() } });
	return { operator: identity, expiresAt: renewedAt, renewed: true };
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
 * the table growing. "Expired" is what validateOperatorSession refuses — an expiry at or before now
 * (`lte`) — so no row outlives the moment the console stops accepting its cookie.
 */
export async function deleteExpiredOperatorSessions(db: Db, clock: Clock): Promise<number> {
	const { count } = await db.operatorSession.deleteMany({ where: { expiresAt: { lte: clock.now().toISOString() } } });
	return count;
}
