import { randomBytes } from 'node:crypto';
import type { Db, Tx } from '../db/client.ts';
import { chosenOutfit } from '../events/offered-catalogue.ts';
import { readSessionQueuePosition } from '../jobs/queue-position.ts';
import { readBotUsername } from '../guests/bot-identity.ts';
import { isOverdue, sessionDeadline, timeoutReasonFor, type SessionTimeouts } from '../guests/session-clock.ts';
import { closeSession, findSession, insertIdleSession, type SessionRow } from '../guests/sessions.repository.ts';
import { readKioskPause } from '../jobs/queue-pause.ts';
import type { Clock } from '../time/clock.ts';
import type { ClosedReason, KioskSessionView, OpenStatus, SessionNotice, SessionStatus } from '../../schemas/kiosk.ts';
import { kioskOutfitView } from './kiosk-outfit-preview.ts';
import { isSessionOfKiosk, listOpenSessionTokens, recordKioskSession } from './kiosk-sessions.repository.ts';

export interface KioskDeps {
	db: Db;
	clock: Clock;
	timeouts: SessionTimeouts;
	/** Worker slots: the queue estimate spreads waiting jobs over them. */
	slots: number;
	/** The pack limit in force, checked again when the photo queues the job (guests/take-photo.ts). */
	packsPerGuest: () => Promise<number>;
}

export function newSessionToken(): string {
	return randomBytes(24).toString('base64url');
}

export type StartOutcome =
	| { kind: 'started'; token: string; botUsername: string }
	| { kind: 'paused'; until: string | null }
	| { kind: 'bot_unknown' };

/**
 * Start: a new idle session owned by this kiosk. Refused while the queue is paused for any reason
 * (an operator, no funds, the provider's day quota: a guest let in then would only wait), and until the worker
 * has told us the bot's username (the QR needs it). A session this kiosk left open is closed as
 * kiosk_reset first: a kiosk shows one guest at a time.
 */
export async function startKioskSession(deps: KioskDeps, kioskId: number): Promise<StartOutcome> {
	const pause = await readKioskPause(deps.db, deps.clock);
	if (pause) return { kind: 'paused', until: pause.until ?? null };
	const botUsername = await readBotUsername(deps.db);
	if (!botUsername) return { kind: 'bot_unknown' };
	await closeKioskSessions(deps, kioskId, 'kiosk_reset');
	const token = newSessionToken();
	const now = deps.clock.now().toISOString();
	await deps.db.$transaction(async (tx) => {
		await insertIdleSession(tx, token, now);
		await recordKioskSession(tx, kioskId, token, now);
	});
	return { kind: 'started', token, botUsername };
}

/**
 * Closes every open session of this kiosk (page reload: kiosk_reset; staff PIN or the console's
 * Reset and Revoke: staff_reset). Takes a transaction too, so the console's audit row goes with it.
 */
export async function closeKioskSessions(
	deps: { db: Db | Tx; clock: Clock },
	kioskId: number,
	reason: ClosedReason
): Promise<number> {
	let closed = 0;
	for (const token of await listOpenSessionTokens(deps.db, kioskId)) {
		if ((await closeSession(deps.db, token, reason, deps.clock.now().toISOString())).won) closed += 1;
	}
	return closed;
}

export type CloseOutcome =
	{ kind: 'closed' } | { kind: 'not_found' } | { kind: 'already_final'; status: SessionStatus };

/** The kiosk closing its own session (the camera failed). */
export async function closeKioskSession(
	deps: Pick<KioskDeps, 'db' | 'clock'>,
	kioskId: number,
	token: string,
	reason: ClosedReason
): Promise<CloseOutcome> {
	if (!(await isSessionOfKiosk(deps.db, kioskId, token))) return { kind: 'not_found' };
	const result = await closeSession(deps.db, token, reason, deps.clock.now().toISOString());
	return result.won ? { kind: 'closed' } : { kind: 'already_final', status: result.current ?? 'expired' };
}

/**
 * What the kiosk shows for its session, read through the server's clock: a session past its
 * deadline is closed here and now (the worker's sweep does the same every second), so the page
 * never depends on the browser's clock or on the worker being up.
 */
export async function readKioskSessionView(
	deps: KioskDeps,
	kioskId: number,
	token: string
): Promise<KioskSessionView | null> {
	if (!(await isSessionOfKiosk(deps.db, kioskId, token))) return null;
	return readSessionView(deps, token);
}

export async function readSessionView(deps: KioskDeps, token: string): Promise<KioskSessionView | null> {
	let session = await findSession(deps.db, token);
	if (!session) return null;
	const now = deps.clock.now();
	if (isOverdue(session, now, deps.timeouts)) {
		await closeSession(deps.db, token, timeoutReasonFor(session.status as OpenStatus), now.toISOString(), [
			session.status as OpenStatus
		]);
		session = (await findSession(deps.db, token)) ?? session;
	}
	const [maintenance, queue, outfit] = await Promise.all([
		readKioskPause(deps.db, deps.clock),
		session.status === 'photo_taken' ? readSessionQueuePosition(deps, token) : Promise.resolve(null),
		session.templateId ? chosenOutfit(deps.db, token, session.templateId) : Promise.resolve(undefined)
	]);
	return toView(
		session,
		deps.timeouts,
		now,
		queue,
		maintenance !== null,
		outfit ? kioskOutfitView(token, outfit) : null
	);
}

function toView(
	session: SessionRow,
	timeouts: SessionTimeouts,
	now: Date,
	queue: KioskSessionView['queue'],
	paused: boolean,
	outfit: KioskSessionView['outfit']
): KioskSessionView {
	const deadline = sessionDeadline(session, timeouts)?.toISOString() ?? null;
	return {
		token: session.sessionToken,
		status: session.status as SessionStatus,
		closedReason: (session.closedReason as ClosedReason | null) ?? null,
		notice: (session.notice as SessionNotice | null) ?? null,
		outfitId: session.templateId,
		outfit,
		qrExpiresAt: session.status === 'idle' ? deadline : null,
		idleExpiresAt: session.status !== 'idle' ? deadline : null,
		serverNow: now.toISOString(),
		queue,
		paused
	};
}
