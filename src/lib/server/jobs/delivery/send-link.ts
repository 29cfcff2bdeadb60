import { generationText } from '../../../i18n/generation.ts';
import { queueNewsQuestionOnce } from '../../broadcasts/news-question.ts';
import { isNotModified } from '../../telegram/errors.ts';
import { LeaseLost } from '../job-errors.ts';
import { readJobProgress, recordLinkMessage } from '../job-progress.ts';
import { completeJob } from '../job.repository.ts';
import type { DeliveryDeps } from './deliver-pack.ts';
import { packLink } from './pack-name.ts';

/**
 * The link, exactly once. Telegram has no idempotency key for sendMessage, so a crash between
 * "sent" and "recorded" would send it twice. Instead: a short placeholder message is sent and its
 * id recorded first; the link is then put into that message with editMessageText — an edit
 * repeated after a crash changes nothing ("message is not modified"). Only then, in one
 * transaction, jobs.link_sent_at + status done + appearance_json NULL, the users row and — once
 * per guest — the news question, queued for the notices outbox to ask after the link.
 * The worst a crash can do is leave one extra "almost there" placeholder; never a second link.
 */
export async function sendLinkOnce(
	deps: DeliveryDeps,
	target: { jobId: number; userId: bigint; name: string }
): Promise<void> {
	const { db, clock, api } = deps;
	const link = packLink(target.name);
	let progress = await readJobProgress(db, target.jobId);
	if (!progress?.linkMessageId) {
		const placeholder = await api.sendMessage(Number(target.userId), generationText(deps.locale, 'link_placeholder'));
		await recordLinkMessage(db, target.jobId, BigInt(placeholder.chat.id), BigInt(placeholder.message_id));
		progress = await readJobProgress(db, target.jobId);
	}
	try {
		await api.editMessageText(
			Number(progress!.linkChatId),
			Number(progress!.linkMessageId),
			generationText(deps.locale, 'link', { link })
		);
	} catch (error) {
		if (!isNotModified(error)) throw error;
	}
	deps.crashPoint('before_link_commit');
	const now = clock.now().toISOString();
	const completed = await db.$transaction(async (tx) => {
		const result = await completeJob(tx, target.jobId, now);
		if (result.won) {
			await tx.user.updateMany({
				where: { telegramUserId: target.userId },
				data: { packLink: link, packName: target.name, packCompletedAt: now }
			});
			await queueNewsQuestionOnce(tx, { jobId: target.jobId, telegramUserId: target.userId }, now);
		}
		return result;
	});
	// Done already (a run resumed after the commit) is fine; any other state means this claim lost the job.
	if (!completed.won && completed.current !== 'done') throw new LeaseLost(completed.refusal);
	deps.crashPoint('after_link_commit');
	await deps.enterStage('done');
}
