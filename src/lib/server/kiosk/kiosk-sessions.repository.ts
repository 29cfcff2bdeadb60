import type { Db, Tx } from '../db/client.ts';
import { DEFAULT_EVENT_ID, eventForKiosk } from '../events/events.repository.ts';
import { OPEN_STATUSES } from '../../schemas/kiosk.ts';

/**
 * `kiosk_sessions`: which kiosk started which session (the sessions table has no column for
 * it), and the event the session belongs to: the kiosk's live event, else the default event.
 */
export async function recordKioskSession(tx: Tx, kioskId: number, sessionToken: string, now: string): Promise<void> {
	await tx.kioskSession.create({
		data: { kioskId, sessionToken, createdAt: now, eventId: await eventForKiosk(tx, kioskId) }
	});
}

/** The event a session belongs to; a session started before events (no kiosk row) is the default event's. */
export async function sessionEventId(db: Db | Tx, sessionToken: string): Promise<number> {
	const row = await db.kioskSession.findUnique({ where: { sessionToken }, select: { eventId: true } });
	return row?.eventId ?? DEFAULT_EVENT_ID;
}

export async function isSessionOfKiosk(db: Db | Tx, kioskId: number, sessionToken: string): Promise<boolean> {
	const row = await db.kioskSession.findUnique({ where: { sessionToken }, select: { kioskId: true } });
	return row?.kioskId === kioskId;
}

/** Tokens of this kiosk's sessions that are still open (normally at most one). */
export async function listOpenSessionTokens(db: Db | Tx, kioskId: number): Promise<string[]> {
	const rows = await db.kioskSession.findMany({
		where: { kioskId },
		orderBy: { createdAt: 'desc' },
		take: 20,
		select: { sessionToken: true }
	});
	if (rows.length === 0) return [];
	const open = await db.session.findMany({
		where: { sessionToken: { in: rows.map((r) => r.sessionToken) }, status: { in: [...OPEN_STATUSES] } },
		select: { sessionToken: true }
	});
	return open.map((r) => r.sessionToken);
}

/** The session this kiosk started last (its Start opens a new one), or null. */
export async function latestSessionOfKiosk(db: Db | Tx, kioskId: number): Promise<string | null> {
	const row = await db.kioskSession.findFirst({
		where: { kioskId },
		orderBy: [{ createdAt: 'desc' }, { sessionToken: 'desc' }],
		select: { sessionToken: true }
	});
	return row?.sessionToken ?? null;
}
