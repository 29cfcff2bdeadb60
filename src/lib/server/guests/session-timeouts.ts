import type { Db } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';
import type { ClosedReason, OpenStatus } from '../../schemas/kiosk.ts';
import { stillOpenSince, timeoutReasonFor, type SessionTimeouts } from './session-clock.ts';
import { closeOverdueSession, listStillSessions } from './sessions.repository.ts';

export interface ExpiredSession {
	sessionToken: string;
	telegramUserId: bigint | null;
	reason: ClosedReason;
}

/**
 * The server's clock on sessions: every open session that sat still past its deadline is closed
 * (qr_timeout for an unscanned QR, idle_timeout for a stalled guest). Each close is conditional on
 * the status and the old `updated_at`, so a guest's step that landed a moment earlier wins cleanly.
 * Returns what it closed, so the worker can tell linked guests.
 */
export async function expireOverdueSessions(deps: {
	db: Db;
	clock: Clock;
	timeouts: SessionTimeouts;
}): Promise<ExpiredSession[]> {
	const now = deps.clock.now();
	const expired: ExpiredSession[] = [];
	const groups: OpenStatus[][] = [['idle'], ['linked', 'consented', 'template_chosen']];
	for (const statuses of groups) {
		const before = stillOpenSince(statuses[0]!, now, deps.timeouts);
		for (const session of await listStillSessions(deps.db, statuses, before)) {
			const status = session.status as OpenStatus;
			const reason = timeoutReasonFor(status);
			if (
				await closeOverdueSession(
					deps.db,
					{ sessionToken: session.sessionToken, status },
					reason,
					before,
					now.toISOString()
				)
			) {
				expired.push({ sessionToken: session.sessionToken, telegramUserId: session.telegramUserId, reason });
			}
		}
	}
	return expired;
}
