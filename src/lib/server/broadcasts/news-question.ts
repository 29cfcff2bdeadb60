import type { Tx } from '../db/client.ts';
import { queueGuestNotice } from '../jobs/guest-notices.repository.ts';
import { recordQuestionQueued } from './news-opt-ins.repository.ts';

/**
 * "Would you like news from <event>?" is queued in the transaction that records the pack as
 * delivered (send-link.ts), as a guest notice: it is sent by the notices outbox after the link,
 * survives a worker restart (a row, not a promise in memory) and is never sent twice by a repeated
 * delivery. Once per guest: a guest who was asked before (whatever they answered, or if they
 * never did) or who used /news or /stop is not asked again, on any later pack or event.
 */
export async function queueNewsQuestionOnce(
	tx: Tx,
	job: { jobId: number; telegramUserId: bigint },
	nowIso: string
): Promise<boolean> {
	const snapshot = await tx.jobSnapshot.findUnique({ where: { jobId: job.jobId }, select: { eventId: true } });
	const event = snapshot
		? await tx.event.findUnique({ where: { id: snapshot.eventId }, select: { id: true, name: true } })
		: null;
	if (!(await recordQuestionQueued(tx, job.telegramUserId, event?.id ?? null, nowIso))) return false;
	const notice = event ? { textKey: 'question', params: { event: event.name } } : { textKey: 'questionNoEvent' };
	await queueGuestNotice(tx, job, { kind: 'news_question', ...notice }, nowIso);
	return true;
}
