import type { ClosedReason, SessionNotice, SessionStatus } from '../../schemas/kiosk.ts';
import type { SessionRow } from './sessions.repository.ts';

/**
 * What a guest's step (link, consent, outfit) came to. Every refusal carries enough for the bot
 * to say one clear sentence; nothing here is an exception.
 */
export type StepRefusal =
	| { kind: 'unknown' }
	| { kind: 'taken' }
	| { kind: 'used' }
	| { kind: 'closed'; reason: ClosedReason | null; notice: SessionNotice | null };

/** Why a session a guest refers to cannot take their step, or null when it can. */
export function refusalFor(session: SessionRow | null, telegramUserId: bigint): StepRefusal | null {
	if (!session) return { kind: 'unknown' };
	if (session.telegramUserId !== null && session.telegramUserId !== telegramUserId) return { kind: 'taken' };
	if (session.status === 'photo_taken') return { kind: 'used' };
	if (session.status === 'expired') return closedRefusal(session);
	return null;
}

export function closedRefusal(session: Pick<SessionRow, 'closedReason' | 'notice'>): StepRefusal {
	return {
		kind: 'closed',
		reason: (session.closedReason as ClosedReason | null) ?? null,
		notice: (session.notice as SessionNotice | null) ?? null
	};
}

export type CurrentStep = Extract<SessionStatus, 'linked' | 'consented' | 'template_chosen'>;
