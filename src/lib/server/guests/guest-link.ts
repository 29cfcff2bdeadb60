import type { Db, Tx } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';
import { saveGuestProfile, type GuestProfile } from './guest-profile.ts';
import { closedRefusal, refusalFor, type CurrentStep, type StepRefusal } from './guest-outcomes.ts';
import { checkPackLimit, type PackLimitSource } from './pack-limit.ts';
import { isOverdue, timeoutReasonFor, type SessionTimeouts } from './session-clock.ts';
import {
	advanceSession,
	closeSession,
	closeWithNotice,
	findSession,
	findSessionForUpdate
} from './sessions.repository.ts';
import type { OpenStatus } from '../../schemas/kiosk.ts';

export interface GuestStepDeps {
	db: Db;
	clock: Clock;
	timeouts: SessionTimeouts;
}

export type LinkOutcome =
	| StepRefusal
	| { kind: 'linked'; step: CurrentStep }
	| { kind: 'already'; step: CurrentStep }
	| { kind: 'pack_in_progress' }
	| { kind: 'pack_ready'; packName: string | null };

/**
 * `/start <token>`: saves the guest's profile, applies the pack limit, and links the session
 * (idle → linked, straight on to consented for a guest who consented before). One transaction with
 * the session's row locked (BEGIN IMMEDIATE on SQLite, a row lock on PostgreSQL), so the kiosk's
 * clock or a second guest racing for the same QR cannot both win, and the loser is told "taken".
 */
export async function linkGuest(
	deps: GuestStepDeps & PackLimitSource,
	token: string,
	profile: GuestProfile
): Promise<LinkOutcome> {
	const perGuest = await deps.packsPerGuest();
	return deps.db.$transaction(async (tx) => {
		const guest = await saveGuestProfile(tx, deps.clock, profile);
		const session = await findSessionForUpdate(tx, token);
		const refusal = refusalFor(session, profile.telegramUserId);
		if (refusal || !session) return refusal ?? { kind: 'unknown' };
		const now = deps.clock.now();
		if (isOverdue(session, now, deps.timeouts)) return closeForTimeout(tx, token, session.status as OpenStatus, now);
		if (session.status !== 'idle') return { kind: 'already', step: session.status as CurrentStep };
		const limit = await checkPackLimit(tx, profile.telegramUserId, perGuest);
		if (!limit.allowed) {
			await closeWithNotice(tx, token, profile.telegramUserId, limit.notice, now.toISOString());
			return limit.notice === 'pack_ready'
				? { kind: 'pack_ready', packName: limit.packName }
				: { kind: 'pack_in_progress' };
		}
		const stamp = now.toISOString();
		const linked = await advanceSession(tx, token, 'idle', 'linked', {
			telegramUserId: profile.telegramUserId,
			updatedAt: stamp
		});
		if (!linked.won) return { kind: 'unknown' };
		if (!guest.consentedAt) return { kind: 'linked', step: 'linked' };
		await advanceSession(tx, token, 'linked', 'consented', { updatedAt: stamp });
		return { kind: 'linked', step: 'consented' };
	});
}

/** The clock ran out before the guest's step: close it now (if nobody did) and say so. */
export async function closeForTimeout(db: Db | Tx, token: string, status: OpenStatus, now: Date): Promise<StepRefusal> {
	const reason = timeoutReasonFor(status);
	await closeSession(db, token, reason, now.toISOString(), [status]);
	const after = await findSession(db, token);
	return after ? closedRefusal(after) : { kind: 'unknown' };
}
