import { InlineKeyboard } from 'grammy';
import { generationText, type GenerationText } from '../../i18n/generation.ts';
import { NEWS_QUESTION_WORDING_VERSION, newsText, type NewsTextKey } from '../../i18n/news.ts';
import type { Locale } from '../../i18n/locale.ts';
import { newsAnswerData } from '../broadcasts/news-choice.ts';
import { findNewsOptIn, forgetUnshownQuestion, recordQuestionShown } from '../broadcasts/news-opt-ins.repository.ts';
import type { Db } from '../db/client.ts';
import { isBotBlocked, markBotBlocked } from '../guests/bot-blocked.ts';
import { readGuestLanguage } from '../guests/guest-profile.ts';
import { claimDueNotice, postponeNotice, recordNoticeEnded, recordNoticeSent, type ClaimedNotice } from '../jobs/guest-notices.repository.ts';
import { recordJobMessage } from '../jobs/job-messages.ts';
import { readQueuePosition } from '../jobs/queue-position.ts';
import type { Logger } from '../log/logger.ts';
import { computeBackoffMs, type BackoffPolicy } from '../time/backoff.ts';
import { SECOND, type Clock } from '../time/clock.ts';
import type { TelegramApi } from './api.ts';
import type { BotBudget } from './bot-budget.ts';
import type { SendPacing } from './send-budget-api.ts';
import { noteFloodControl, type ChatCooldown } from './flood-control.ts';
import { renderGuestStatus } from './guest-status.ts';
import { readSendFailure, recordRightAfterSend } from './outbox-send.ts';
import { errorText } from '../errors/error-text.ts';

/**
 * Sending the guest notices outbox (guest_notices): claim → sendMessage → record, at least once.
 * A 429 waits its retry_after (and keeps the whole chat quiet that long), 5xx, timeouts and
 * dropped connections back off (capped exponential with jitter); a 403 marks the guest as having
 * blocked the bot and ends the notice, and later notices to a marked guest end as `blocked`
 * without a call. The remaining duplicate window is a plain send's: Telegram posted the message
 * but the answer was lost (a timeout after the post) or the worker died before the record — the
 * notice is sent again. The "Generating…" notice becomes the guest's status message, whose later
 * states are edits (guest-status.ts) and so arrive exactly once.
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

export const NOTICE_BACKOFF: BackoffPolicy = { baseMs: 2 * SECOND, capMs: 2 * 60 * SECOND };
/** About an hour of Telegram trouble (2 s doubling to 2 min, then every 2 min) before a notice is given up. */
export const MAX_NOTICE_ATTEMPTS = 35;
/**
 * A pass runs every 500 ms and sends at most 8, so one pass stays short; the bot-wide limit itself
 * is the budget's (bot-budget.ts), shared with the status edits and the broadcasts.
 */
const NOTICES_PER_PASS = 8;

type Outcome = 'sent' | 'ended' | 'later';

/** Sends due notices (only `jobId`'s when given, right after the change that queued them); returns how many were sent. */
export async function deliverGuestNotices(deps: GuestNoticeDeps, options: { jobId?: number; shouldStop?: () => boolean } = {}): Promise<number> {
	let sent = 0;
	for (let i = 0; i < NOTICES_PER_PASS && !options.shouldStop?.(); i++) {
		const claimed = await claimDueNotice(deps.db, deps.clock.now(), deps.leaseMs, options.jobId);
		if (!claimed) break;
		if ((await deliverNotice(deps, claimed)) === 'sent') sent++;
	}
	return sent;
}

/** Like deliverGuestNotices for one job, never throwing: the outbox task retries whatever is left. */
export async function deliverJobNoticesNow(deps: GuestNoticeDeps, jobId: number): Promise<void> {
	await deliverGuestNotices(deps, { jobId }).catch((error: unknown) => deps.logger.warn({ err: error, jobId }, 'guest notice left to the outbox'));
}

async function deliverNotice(deps: GuestNoticeDeps, notice: ClaimedNotice): Promise<Outcome> {
	const chatId = notice.telegramUserId;
	if (deps.cooldown.isCooling(chatId, deps.clock.now())) {
		await postponeNotice(deps.db, notice, new Date(deps.clock.now().getTime() + SECOND), null, true);
		return 'later';
	}
	if (await isBotBlocked(deps.db, chatId)) return endNotice(deps, notice, 'blocked', 'the guest has blocked the bot; not sent');
	const rendered = await renderNotice(deps, notice);
	if ('outdated' in rendered) return endNotice(deps, notice, 'failed', `outdated: ${rendered.outdated}`);
	const { text, locale } = rendered;
	// The bot's second is full (or this chat got a message under a second ago): next pass, not an attempt.
	if (!(await deps.budget.tryTake(chatId))) {
		await postponeNotice(deps.db, notice, new Date(deps.clock.now().getTime() + SECOND), null, true);
		return 'later';
	}
	let messageId: bigint;
	try {
		messageId = BigInt((await deps.api.sendMessage(Number(chatId), text, rendered.keyboard ? { reply_markup: rendered.keyboard } : {})).message_id);
	} catch (error) {
		return recordSendFailure(deps, notice, error);
	}
	deps.crashPoint?.('after_notice_sent');
	await recordRightAfterSend(
		() =>
			deps.db.$transaction(async (tx) => {
				await recordNoticeSent(tx, notice, messageId, deps.clock.now().toISOString());
				if (notice.kind === 'generating') await recordJobMessage(tx, deps.clock, { jobId: notice.jobId, kind: 'generating', chatId, messageId, shownText: text });
				if (notice.kind === 'news_question') await recordQuestionShown(tx, chatId, NEWS_QUESTION_WORDING_VERSION, locale, deps.clock.now().toISOString());
			}),
		deps.logger,
		{ noticeId: notice.id, jobId: notice.jobId }
	);
	return 'sent';
}

type Rendered = { text: string; locale: Locale; keyboard?: InlineKeyboard } | { outdated: string };

/**
 * The notice's words in the guest's language. "Generating…" is the status message as it stands
 * now; it and the delay notice are no longer worth sending once the job has finished. The news
 * question carries Yes and No (neither chosen) and is dropped if the guest chose meanwhile (/news, /stop).
 */
async function renderNotice(deps: GuestNoticeDeps, notice: ClaimedNotice): Promise<Rendered> {
	const locale = await readGuestLanguage(deps.db, notice.telegramUserId);
	if (notice.kind === 'news_question') return renderNewsQuestion(deps, notice, locale);
	if (notice.kind === 'failure' || notice.kind === 'deadline') return { text: generationText(locale, notice.textKey as GenerationText, readParams(notice.textParams)), locale };
	const finished = { outdated: 'the job finished before this notice could be sent' };
	const queue = await readQueuePosition(deps, notice.jobId);
	if (!queue || queue.status === 'done' || queue.status === 'failed') return finished;
	if (notice.kind === 'delay') return { text: generationText(locale, notice.textKey as GenerationText, readParams(notice.textParams)), locale };
	const status = renderGuestStatus(locale, { status: queue.status, stage: null, queue });
	return status === null ? finished : { text: status, locale };
}

async function renderNewsQuestion(deps: GuestNoticeDeps, notice: ClaimedNotice, locale: Locale): Promise<Rendered> {
	if ((await findNewsOptIn(deps.db, notice.telegramUserId))?.state !== 'asked') return { outdated: 'the guest chose about news before the question was sent' };
	const say = (key: NewsTextKey) => newsText(locale, key, readParams(notice.textParams));
	const version = NEWS_QUESTION_WORDING_VERSION;
	const keyboard = new InlineKeyboard().text(say('yes'), newsAnswerData('yes', version)).text(say('no'), newsAnswerData('no', version));
	return { text: say(notice.textKey as NewsTextKey), locale, keyboard };
}

function readParams(raw: string | null): Record<string, string | number> {
	if (!raw) return {};
	const value = JSON.parse(raw) as unknown;
	return value && typeof value === 'object' ? (value as Record<string, string | number>) : {};
}

async function recordSendFailure(deps: GuestNoticeDeps, notice: ClaimedNotice, error: unknown): Promise<Outcome> {
	const failure = readSendFailure(error);
	if (failure.outcome === 'blocked') {
		await markBotBlocked(deps.db, deps.clock, notice.telegramUserId);
		return endNotice(deps, notice, 'blocked', errorText(error));
	}
	if (failure.outcome === 'unreachable' || notice.attempts >= MAX_NOTICE_ATTEMPTS) return endNotice(deps, notice, 'failed', errorText(error));
	await deps.budget.noteFlood(noteFloodControl(deps, notice.telegramUserId, error));
	const delay = Math.max(computeBackoffMs(notice.attempts, NOTICE_BACKOFF, deps.random), failure.retryAfterMs);
	const retryAt = new Date(deps.clock.now().getTime() + delay);
	await postponeNotice(deps.db, notice, retryAt, errorText(error));
	deps.logger.warn({ noticeId: notice.id, jobId: notice.jobId, kind: notice.kind, attempts: notice.attempts, retryAt: retryAt.toISOString(), error: errorText(error) }, 'guest notice not sent; will retry');
	return 'later';
}

/**
 * Ends a notice that will not be sent; a "Generating…" that cannot be sent leaves nothing to edit
 * (message id 0); a news question that was never shown leaves the guest unasked (asked after their next pack).
 */
async function endNotice(deps: GuestNoticeDeps, notice: ClaimedNotice, state: 'failed' | 'blocked', reason: string): Promise<Outcome> {
	await deps.db.$transaction(async (tx) => {
		const ended = await recordNoticeEnded(tx, notice, state, reason);
		if (ended && notice.kind === 'generating') await recordJobMessage(tx, deps.clock, { jobId: notice.jobId, kind: 'generating', chatId: notice.telegramUserId, messageId: 0n });
		if (ended && notice.kind === 'news_question') await forgetUnshownQuestion(tx, notice.telegramUserId);
	});
	deps.logger.info({ noticeId: notice.id, jobId: notice.jobId, kind: notice.kind, state, reason }, 'guest notice ended without a message');
	return 'ended';
}

/** What alerting the admins takes. */
export interface NoticeDeps {
	db: Db;
	/** A client without the budget's transformer (the notices' own): alertAdmins takes each place itself. */
	api: Pick<TelegramApi, 'sendMessage'>;
	logger: Logger;
	/** The bot's one send budget: an alert is a message like any other (guest lane). */
	pacing: SendPacing;
}

/** Messages to every admin id, each after its place in the send budget; one failing admin does not stop the others. */
export async function alertAdmins(deps: NoticeDeps, adminIds: readonly bigint[], text: string): Promise<void> {
	for (const id of adminIds) {
		await deps.pacing.budget.waitForPlace(id, 'guest', deps.pacing.sleep);
		await deps.api.sendMessage(Number(id), text).catch((error: unknown) => deps.logger.warn({ err: error }, 'could not alert an admin'));
	}
}
