import { generationText, type GenerationText } from '../../i18n/generation.ts';
import { durationText, guestText } from '../../i18n/guest-flow.ts';
import type { Locale } from '../../i18n/locale.ts';
import type { QueueView } from '../../schemas/kiosk.ts';
import type { Db } from '../db/client.ts';
import { readGuestLanguage } from '../guests/guest-profile.ts';
import { listLiveStatusMessages, recordStatusShown, type StatusMessage } from './job-messages.ts';
import { DEFAULT_JOB_SECONDS, readActiveQueue } from './queue-position.ts';
import type { Logger } from '../log/logger.ts';
import { MINUTE, type Clock } from '../time/clock.ts';
import type { TelegramApi } from '../telegram/api.ts';
import { isBlockedByUser, isNotModified, isUneditable } from '../telegram/errors.ts';
import { markBotBlocked } from '../guests/bot-blocked.ts';
import type { EditPacer } from '../telegram/edit-pacer.ts';
import { noteFloodControl, type ChatCooldown } from '../telegram/flood-control.ts';

/**
 * The guest's status message — the "Generating…" notice — kept true as the job moves: "you are
 * #3, about 4 min" → #2 → #1 → the drawing stages → uploading → ready. The worker's status task
 * compares what each live message should say with what it shows (job_messages.shown_text) and
 * edits it, paced by EditPacer (once every few seconds per guest, a share of the bot's send budget overall).
 * An edit is idempotent: repeated after a crash it changes nothing ("message is not modified"),
 * so every state reaches the guest's one message exactly once, however the worker dies.
 */
export interface GuestStatusDeps {
	db: Db;
	clock: Clock;
	logger: Logger;
	api: Pick<TelegramApi, 'editMessageText'>;
	slots: number;
	pacer: EditPacer;
	cooldown: ChatCooldown;
	crashPoint?: (step: string) => void;
}

/** A finished job's message is still given its last word ("ready") for this long. */
const FINISHED_WINDOW_MS = 10 * MINUTE;

const STAGE_TEXTS: Partial<Record<string, GenerationText>> = {
	passport: 'stage_passport',
	anchor: 'stage_anchor',
	anchor_verify: 'stage_anchor',
	sheet: 'stage_sheet',
	cut: 'stage_cut',
	regen: 'stage_sheet',
	heads: 'stage_heads',
	qa: 'stage_qa',
	animate: 'stage_qa',
	delivering: 'stage_uploading',
	uploading: 'stage_uploading',
	ready: 'stage_uploading',
	done: 'stage_done'
};

export interface StatusFacts {
	status: string;
	stage: string | null;
	queue: QueueView | undefined;
}

/** What the status message says for a job; null = leave it as it is (a failure is told by its own notice). */
export function renderGuestStatus(locale: Locale, facts: StatusFacts): string | null {
	if (facts.status === 'done') return generationText(locale, 'stage_done');
	if (facts.status === 'failed') return null;
	const eta = durationText(locale, facts.queue?.etaSeconds ?? DEFAULT_JOB_SECONDS);
	const position = facts.queue?.position ?? 0;
	if (facts.status === 'queued' && position > 0) return guestText(locale, 'generatingQueued', { position, eta });
	if (facts.status === 'queued' || !facts.stage || facts.stage === 'queued')
		return guestText(locale, 'generatingNow', { eta });
	// A stage without words of its own (failed on its way out, say) leaves the last stage shown.
	const key = STAGE_TEXTS[facts.stage];
	return key ? generationText(locale, key) : null;
}

/** One pass of the status task; returns how many messages were edited. */
export async function refreshGuestStatuses(deps: GuestStatusDeps): Promise<number> {
	const now = deps.clock.now();
	const messages = await listLiveStatusMessages(deps.db, new Date(now.getTime() - FINISHED_WINDOW_MS).toISOString());
	if (messages.length === 0) return 0;
	const queue = await readActiveQueue(deps);
	let edited = 0;
	for (const message of messages) {
		if (await deps.pacer.isSpent(now.getTime())) break;
		const locale = await readGuestLanguage(deps.db, message.telegramUserId);
		const text = renderGuestStatus(locale, {
			status: message.status,
			stage: message.stage,
			queue: queue.get(message.jobId)
		});
		if (text === null || text === message.shownText) continue;
		if (deps.cooldown.isCooling(message.chatId, now)) continue;
		if (!(await deps.pacer.take(message.chatId, Date.parse(message.touchedAt), now.getTime()))) continue;
		try {
			if (await editStatus(deps, message, text)) edited++;
		} finally {
			await deps.pacer.settle(message.chatId);
		}
	}
	return edited;
}

async function editStatus(deps: GuestStatusDeps, message: StatusMessage, text: string): Promise<boolean> {
	try {
		await deps.api.editMessageText(Number(message.chatId), Number(message.messageId), text);
	} catch (error) {
		if (isNotModified(error)) {
			await recordStatusShown(deps.db, deps.clock, message.jobId, text);
			return false;
		}
		// A deleted or too old message will not take this text: it is recorded as shown so it is not tried again.
		if (isUneditable(error)) await recordStatusShown(deps.db, deps.clock, message.jobId, text);
		// Blocked since the message was sent: marked, so no status edit or notice tries again.
		else if (isBlockedByUser(error)) await markBotBlocked(deps.db, deps.clock, message.telegramUserId);
		else await deps.pacer.noteFlood(noteFloodControl(deps, message.chatId, error));
		deps.logger.warn({ err: error, jobId: message.jobId }, 'could not update the guest status message');
		return false;
	}
	deps.crashPoint?.('after_status_edit');
	await recordStatusShown(deps.db, deps.clock, message.jobId, text);
	return true;
}
