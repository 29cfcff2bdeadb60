import type { Tx } from '../db/client.ts';
import { closeForTimeout, type GuestStepDeps } from './guest-link.ts';
import { recordConsent } from './guest-profile.ts';
import { refusalFor, type CurrentStep, type StepRefusal } from './guest-outcomes.ts';
import { isOverdue, stillOpenSince } from './session-clock.ts';
import {
	advanceSession,
	closeSession,
	findSession,
	findSessionForUpdate,
	listOpenSessionsOfGuest,
	type SessionRow
} from './sessions.repository.ts';
import type { OpenStatus, SessionStatus } from '../../schemas/kiosk.ts';

export type StepOutcome =
	StepRefusal | { kind: 'done' } | { kind: 'already'; step: CurrentStep } | { kind: 'too_early' };

/**
 * The guest's taps after linking. Each runs in one BEGIN IMMEDIATE transaction and moves the session
 * with a conditional update that also requires the session not to have sat past its deadline, so a
 * tap and the kiosk's timeout racing each other cannot both win.
 */
async function runStep(
	deps: GuestStepDeps,
	token: string,
	telegramUserId: bigint,
	step: (tx: Tx, session: SessionRow, now: Date) => Promise<StepOutcome>
): Promise<StepOutcome> {
	return deps.db.$transaction(async (tx) => {
		const session = await findSessionForUpdate(tx, token);
		const refusal =
			refusalFor(session, telegramUserId) ?? (session?.telegramUserId === null ? { kind: 'unknown' as const } : null);
		if (refusal || !session) return refusal ?? { kind: 'unknown' };
		const now = deps.clock.now();
		if (isOverdue(session, now, deps.timeouts)) return closeForTimeout(tx, token, session.status as OpenStatus, now);
		return step(tx, session, now);
	});
}

/** Which states a step may start from, and what the session says if it is already past it. */
async function advance(
	deps: GuestStepDeps,
	tx: Tx,
	session: SessionRow,
	now: Date,
	from: readonly SessionStatus[],
	to: SessionStatus,
	data: Record<string, unknown>
): Promise<StepOutcome> {
	if (!from.includes(session.status as SessionStatus))
		return session.status === 'idle' ? { kind: 'too_early' } : { kind: 'already', step: session.status as CurrentStep };
	const result = await advanceSession(
		tx,
		session.sessionToken,
		session.status as SessionStatus,
		to,
		{ ...data, updatedAt: now.toISOString() },
		stillOpenSince(session.status as SessionStatus, now, deps.timeouts)
	);
	if (result.won) return { kind: 'done' };
	const after = await findSession(tx, session.sessionToken);
	return (
		refusalFor(after, session.telegramUserId ?? 0n) ?? {
			kind: 'already',
			step: (after?.status ?? 'linked') as CurrentStep
		}
	);
}

/** The consent button: records consent (once per guest) and moves linked → consented. */
export function giveConsent(deps: GuestStepDeps, token: string, telegramUserId: bigint): Promise<StepOutcome> {
	return runStep(deps, token, telegramUserId, async (tx, session, now) => {
		const outcome = await advance(deps, tx, session, now, ['linked'], 'consented', {});
		if (outcome.kind === 'done') await recordConsent(tx, deps.clock, telegramUserId);
		return outcome;
	});
}

/** An outfit button: saves template_id; the guest may change their mind until the photo is taken. */
export function chooseOutfit(
	deps: GuestStepDeps,
	token: string,
	telegramUserId: bigint,
	outfitId: string
): Promise<StepOutcome> {
	return runStep(deps, token, telegramUserId, (tx, session, now) =>
		advance(deps, tx, session, now, ['consented', 'template_chosen'], 'template_chosen', { templateId: outfitId })
	);
}

export type CancelOutcome = { kind: 'cancelled'; count: number } | { kind: 'nothing_open' };

/** /cancel: closes every open session of this guest with closed_reason = cancel. */
export async function cancelGuestSessions(
	deps: Pick<GuestStepDeps, 'db' | 'clock'>,
	telegramUserId: bigint
): Promise<CancelOutcome> {
	const open = await listOpenSessionsOfGuest(deps.db, telegramUserId);
	let count = 0;
	for (const session of open) {
		const result = await closeSession(deps.db, session.sessionToken, 'cancel', deps.clock.now().toISOString());
		if (result.won) count += 1;
	}
	return count > 0 ? { kind: 'cancelled', count } : { kind: 'nothing_open' };
}
