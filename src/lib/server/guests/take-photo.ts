import type { Db } from '../db/client.ts';
import { outfitForJob, OutfitNotInCatalogue } from '../events/catalogue.repository.ts';
import { writeJobSnapshot } from '../jobs/job-snapshot.repository.ts';
import { enqueueJob } from '../jobs/job.repository.ts';
import { sessionEventId } from '../kiosk/kiosk-sessions.repository.ts';
import type { Clock } from '../time/clock.ts';
import type { SessionStatus } from '../../schemas/kiosk.ts';
import { closeForTimeout } from './guest-link.ts';
import { closedRefusal, type StepRefusal } from './guest-outcomes.ts';
import { isOverdue, stillOpenSince, type SessionTimeouts } from './session-clock.ts';
import { checkPackLimitLocked, type PackLimitSource } from './pack-limit.ts';
import { advanceSession, closeWithNotice, findSessionForUpdate } from './sessions.repository.ts';

export type TakePhotoOutcome =
	| { kind: 'enqueued'; jobId: number; telegramUserId: bigint }
	| { kind: 'not_ready'; status: SessionStatus }
	| { kind: 'already_taken' }
	| StepRefusal;

/** Whether a session can take a photo right now (a cheap check before reading the upload). */
export function photoReadiness(
	session: { status: string; closedReason: string | null; notice: string | null } | null
): TakePhotoOutcome | null {
	if (!session) return { kind: 'unknown' };
	if (session.status === 'photo_taken') return { kind: 'already_taken' };
	if (session.status === 'expired') return closedRefusal(session);
	if (session.status !== 'template_chosen') return { kind: 'not_ready', status: session.status as SessionStatus };
	return null;
}

/**
 * `take_photo_and_enqueue`: in one BEGIN IMMEDIATE transaction the session goes
 * template_chosen → photo_taken and the job is queued with its snapshot (event, catalogue version,
 * outfit as published), with created_at = now — the moment the bot's
 * "Generating…" refers to. Two uploads racing: exactly one transition wins, so one job.
 * The pack limit is checked again here, with the guest's row locked: a guest who linked two
 * kiosks' sessions before either took a photo passed the check at both links, and the second
 * photo — at the other kiosk, or at the same moment from another web process — is refused
 * with the same notice a third /start would get.
 */
export async function takePhotoAndEnqueue(
	deps: { db: Db; clock: Clock; timeouts: SessionTimeouts } & PackLimitSource,
	token: string,
	photoPath: string
): Promise<TakePhotoOutcome> {
	const perGuest = await deps.packsPerGuest();
	return deps.db.$transaction(async (tx) => {
		const session = await findSessionForUpdate(tx, token);
		const refusal = photoReadiness(session);
		if (refusal || !session) return refusal ?? { kind: 'unknown' };
		const now = deps.clock.now();
		if (isOverdue(session, now, deps.timeouts)) return closeForTimeout(tx, token, 'template_chosen', now);
		const stamp = now.toISOString();
		if (session.telegramUserId !== null) {
			const limit = await checkPackLimitLocked(tx, session.telegramUserId, perGuest);
			if (!limit.allowed) {
				await closeWithNotice(tx, token, session.telegramUserId, limit.notice, stamp, 'template_chosen');
				return { kind: 'closed', reason: null, notice: limit.notice };
			}
		}
		const moved = await advanceSession(
			tx,
			token,
			'template_chosen',
			'photo_taken',
			{ updatedAt: stamp },
			stillOpenSince('template_chosen', now, deps.timeouts)
		);
		if (!moved.won || session.telegramUserId === null || session.templateId === null) return { kind: 'already_taken' };
		const jobId = await enqueueJob(tx, {
			telegramUserId: session.telegramUserId,
			sessionToken: token,
			photoPath,
			templateId: session.templateId,
			now: stamp
		});
		const eventId = await sessionEventId(tx, token);
		const chosen = await outfitForJob(tx, eventId, session.templateId);
		if (!chosen) throw new OutfitNotInCatalogue(eventId, session.templateId);
		await writeJobSnapshot(tx, deps.clock, { jobId, eventId, catalogueVersion: chosen.version, outfit: chosen.outfit });
		return { kind: 'enqueued', jobId, telegramUserId: session.telegramUserId };
	});
}
