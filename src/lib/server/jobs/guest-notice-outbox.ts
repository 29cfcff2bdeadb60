import { InlineKeyboard } from 'grammy';
import { generationText, type GenerationText } from '../../i18n/generation.ts';
import { NEWS_QUESTION_WORDING_VERSION, newsText, type NewsTextKey } from '../../i18n/news.ts';
import type { Locale } from '../../i18n/locale.ts';
import { newsAnswerData } from '../broadcasts/news-choice.ts';
import { findNewsOptIn, forgetUnshownQuestion, recordQuestionShown } from '../broadcasts/news-opt-ins.repository.ts';
import type { Db } from '../db/client.ts';
import { isBotBlocked, markBotBlocked } from '../guests/bot-blocked.ts';
import { readGuestLanguage } from '../guests/guest-profile.ts';
import type { Logger } from '../log/logger.ts';
import { runOutboxPass, type OutboxSender } from '../outbox/outbox-driver.ts';
import type { TelegramApi } from '../telegram/api.ts';
import type { BotBudget } from '../telegram/bot-budget.ts';
import type { ChatCooldown } from '../telegram/flood-control.ts';
import { renderGuestStatus } from './guest-status.ts';
import { SECOND, type Clock } from '../time/clock.ts';
import {
	claimDueNotice,
	postponeNotice,
	recordNoticeEnded,
	recordNoticeSent,
	type ClaimedNotice
} from './guest-notices.repository.ts';
import { recordJobMessage } from './job-messages.ts';
import { readQueuePosition } from './queue-position.ts';

/**
 * The guest notices outbox (guest_notices) as a sender of the outbox driver: claim → sendMessage →
 * record, at least once. Guest lane of the send budget (no place this second: back a second, the
 * attempt refunded); a 429 waits its retry_after and keeps the whole chat quiet that long; 5xx,
 * timeouts and dropped connections back off; a 403 marks the guest as having blocked the bot and
 * ends the notice, and later notices to a marked guest end as `blocked` without a call; after
 * MAX_NOTICE_ATTEMPTS (about an hour of trouble) a notice is given up. The remaining duplicate
 * window is a plain send's: Telegram posted the message but the answer was lost or the worker died
 * before the record — the notice is sent again. The "Generating…" notice becomes the guest's status
 * message, whose later states are edits (telegram/guest-status.ts) and so arrive exactly once.
 */
export interface GuestNoticeDeps {
	db: Db;
	clock: Clock;
	logger: Logger;
	/** A client without auto-retry (outbox-api.ts): a failure goes back to the row's own schedule. */
	api: Pick<TelegramApi, 'sendMessage'>;
	cooldown: ChatCooldown;
	/** The worker's bot-wide send budget (bot-budget.ts): notices take the guest lane. */
	budget: BotBudget;
	slots: number;
	/** How long a claimed notice is left alone: longer than one call's timeout. */
	leaseMs: number;
	crashPoint?: (step: string) => void;
	random?: () => number;
}

/** About an hour of Telegram trouble (2 s doubling to 2 min, then every 2 min) before a notice is given up. */
export const MAX_NOTICE_ATTEMPTS = 35;

interface NoticeMessage {
	text: string;
	locale: Locale;
	keyboard?: InlineKeyboard;
}

/** Sends due notices (only `jobId`'s when given, right after the change that queued them); returns how many were sent. */
export async function deliverGuestNotices(
	deps: GuestNoticeDeps,
	options: { jobId?: number; shouldStop?: () => boolean } = {}
): Promise<number> {
	return runOutboxPass(guestNoticeOutbox(deps, options.jobId), { ...deps, shouldStop: options.shouldStop });
}

/** Like deliverGuestNotices for one job, never throwing: the outbox task retries whatever is left. */
export async function deliverJobNoticesNow(deps: GuestNoticeDeps, jobId: number): Promise<void> {
	await deliverGuestNotices(deps, { jobId }).catch((error: unknown) =>
		deps.logger.warn({ err: error, jobId }, 'guest notice left to the outbox')
	);
}

function guestNoticeOutbox(
	deps: GuestNoticeDeps,
	jobId: number | undefined
): OutboxSender<ClaimedNotice, NoticeMessage, bigint> {
	return {
		name: 'guest notice',
		// A pass runs every 500 ms and sends at most 8, so one pass stays short.
		perPass: 8,
		ladder: {
			backoff: { baseMs: 2 * SECOND, capMs: 2 * 60 * SECOND },
			maxAttempts: MAX_NOTICE_ATTEMPTS,
			recipient: 'person',
			floodCountsAsAttempt: true
		},
		places: 'guest',
		crashSteps: { afterSend: 'after_notice_sent' },
		claim: (now) => claimDueNotice(deps.db, now, deps.leaseMs, jobId),
		// The claim counts the attempt (a sender that dies mid-call has used one).
		attempt: (notice) => notice.attempts,
		chatId: (notice) => notice.telegramUserId,
		describe: (notice) => ({ noticeId: notice.id, jobId: notice.jobId, kind: notice.kind }),
		async prepare(notice) {
			if (await isBotBlocked(deps.db, notice.telegramUserId))
				return { end: 'blocked', reason: 'the guest has blocked the bot; not sent' };
			const rendered = await renderNotice(deps, notice);
			return 'outdated' in rendered
				? { end: 'skipped', reason: `outdated: ${rendered.outdated}` }
				: { message: rendered };
		},
		send: async (notice, message) =>
			BigInt(
				(
					await deps.api.sendMessage(
						Number(notice.telegramUserId),
						message.text,
						message.keyboard ? { reply_markup: message.keyboard } : {}
					)
				).message_id
			),
		recordSent: (notice, message, messageId) =>
			deps.db.$transaction(async (tx) => {
				const chatId = notice.telegramUserId;
				await recordNoticeSent(tx, notice, messageId, deps.clock.now().toISOString());
				if (notice.kind === 'generating')
					await recordJobMessage(tx, deps.clock, {
						jobId: notice.jobId,
						kind: 'generating',
						chatId,
						messageId,
						shownText: message.text
					});
				if (notice.kind === 'news_question')
					await recordQuestionShown(
						tx,
						chatId,
						NEWS_QUESTION_WORDING_VERSION,
						message.locale,
						deps.clock.now().toISOString()
					);
			}),
		// Not counted (no call, or no place): the claim's attempt is refunded.
		postpone: (notice, retryAt, error, counts) => postponeNotice(deps.db, notice, retryAt, error, !counts),
		async end(notice, as, reason, called) {
			if (as === 'blocked' && called) await markBotBlocked(deps.db, deps.clock, notice.telegramUserId);
			await endNotice(deps, notice, as === 'blocked' ? 'blocked' : 'failed', reason);
		}
	};
}

/**
 * Ends a notice that will not be sent; a "Generating…" that cannot be sent leaves nothing to edit
 * (message id 0); a news question that was never shown leaves the guest unasked (asked after their next pack).
 */
async function endNotice(
	deps: GuestNoticeDeps,
	notice: ClaimedNotice,
	state: 'failed' | 'blocked',
	reason: string
): Promise<void> {
	await deps.db.$transaction(async (tx) => {
		const ended = await recordNoticeEnded(tx, notice, state, reason);
		if (ended && notice.kind === 'generating')
			await recordJobMessage(tx, deps.clock, {
				jobId: notice.jobId,
				kind: 'generating',
				chatId: notice.telegramUserId,
				messageId: 0n
			});
		if (ended && notice.kind === 'news_question') await forgetUnshownQuestion(tx, notice.telegramUserId);
	});
}

type Rendered = NoticeMessage | { outdated: string };

/**
 * The notice's words in the guest's language. "Generating…" is the status message as it stands
 * now; it and the delay notice are no longer worth sending once the job has finished. The news
 * question carries Yes and No (neither chosen) and is dropped if the guest chose meanwhile (/news, /stop).
 */
async function renderNotice(deps: GuestNoticeDeps, notice: ClaimedNotice): Promise<Rendered> {
	const locale = await readGuestLanguage(deps.db, notice.telegramUserId);
	if (notice.kind === 'news_question') return renderNewsQuestion(deps, notice, locale);
	if (notice.kind === 'failure' || notice.kind === 'deadline')
		return { text: generationText(locale, notice.textKey as GenerationText, readParams(notice.textParams)), locale };
	const finished = { outdated: 'the job finished before this notice could be sent' };
	const queue = await readQueuePosition(deps, notice.jobId);
	if (!queue || queue.status === 'done' || queue.status === 'failed') return finished;
	if (notice.kind === 'delay')
		return { text: generationText(locale, notice.textKey as GenerationText, readParams(notice.textParams)), locale };
	const status = renderGuestStatus(locale, { status: queue.status, stage: null, queue });
	return status === null ? finished : { text: status, locale };
}

async function renderNewsQuestion(deps: GuestNoticeDeps, notice: ClaimedNotice, locale: Locale): Promise<Rendered> {
	if ((await findNewsOptIn(deps.db, notice.telegramUserId))?.state !== 'asked')
		return { outdated: 'the guest chose about news before the question was sent' };
	const say = (key: NewsTextKey) => newsText(locale, key, readParams(notice.textParams));
	const version = NEWS_QUESTION_WORDING_VERSION;
	const keyboard = new InlineKeyboard()
		.text(say('yes'), newsAnswerData('yes', version))
		.text(say('no'), newsAnswerData('no', version));
	return { text: say(notice.textKey as NewsTextKey), locale, keyboard };
}

function readParams(raw: string | null): Record<string, string | number> {
	if (!raw) return {};
	const value = JSON.parse(raw) as unknown;
	return value && typeof value === 'object' ? (value as Record<string, string | number>) : {};
}
