import type { RecipientState } from '../../schemas/broadcast.schema.ts';
import { BROADCAST_MAX_ATTEMPTS, RECIPIENT_REASON } from './recipient-reasons.ts';

/**
 * What happened to one guest's copy of a broadcast, in the operator's words: the console's results
 * table and the guest's message history read a broadcast_recipients row through this. No status
 * codes and no column names: Telegram's 403 is "blocked the bot", its 400 "chat not found" is "has
 * no chat with them", a 5xx is "Telegram's servers answered with an error". Pure: the row in, words
 * out; the page formats the time in the operator's zone.
 */
export interface RecipientRecord {
	state: string;
	error: string | null;
	attempts: number;
	sentAt: string | null;
	nextAttemptAt: string | null;
	updatedAt: string;
}

export interface RecipientOutcome {
	/** The state as a filter names it: Sent, Waiting, Skipped, Blocked the bot, Failed. */
	label: string;
	/** One sentence: what happened and why. */
	words: string;
	/** When: sent at, next try at, or when it was given up or skipped. */
	when: { word: string; at: string } | null;
}

export const RECIPIENT_STATE_LABELS: Record<RecipientState, string> = {
	sent: 'Sent',
	queued: 'Waiting',
	skipped: 'Skipped',
	blocked: 'Blocked the bot',
	failed: 'Failed'
};

export function describeRecipient(row: RecipientRecord): RecipientOutcome {
	const state = (row.state in RECIPIENT_STATE_LABELS ? row.state : 'failed') as RecipientState;
	const label = RECIPIENT_STATE_LABELS[state];
	const ended = { word: 'at', at: row.updatedAt };
	switch (state) {
		case 'sent':
			return { label, words: 'Sent: the guest got it.', when: { word: 'sent at', at: row.sentAt ?? row.updatedAt } };
		case 'queued':
			return {
				label,
				words: waitingWords(row),
				when: row.nextAttemptAt ? { word: 'next try at', at: row.nextAttemptAt } : null
			};
		case 'skipped':
			return { label, words: skippedWords(row.error), when: ended };
		case 'blocked':
			return {
				label,
				words:
					row.error === RECIPIENT_REASON.blockedKnown
						? 'Skipped: they had blocked the bot before their turn, so nothing was sent.'
						: 'Not delivered: they have blocked the bot, so Telegram refused the message.',
				when: ended
			};
		case 'failed':
			return { label, words: failedWords(row), when: ended };
	}
}

function waitingWords(row: RecipientRecord): string {
	if (!row.error || row.error === RECIPIENT_REASON.noPlace) return 'Waiting for its turn.';
	if (/flood|\(429\)/i.test(row.error))
		return 'Waiting: Telegram asked the bot to slow down; it goes out after the pause.';
	if (row.attempts === 0) return 'Waiting for its turn.';
	return `Waiting: try ${row.attempts} of ${BROADCAST_MAX_ATTEMPTS} did not go through (${plainFailure(row.error)}); it is tried again.`;
}

function skippedWords(error: string | null): string {
	switch (error) {
		case RECIPIENT_REASON.optedOut:
			return 'Skipped: they opted out of news (/stop or the “No more messages” button).';
		case RECIPIENT_REASON.notOptedIn:
			return 'Skipped: they no longer agree to news.';
		case RECIPIENT_REASON.gone:
			return 'Skipped: the guest was erased (forgotten or past retention) before their turn.';
		case RECIPIENT_REASON.cancelled:
			return 'Skipped: the broadcast was cancelled before their turn.';
		default:
			return `Skipped: ${error ?? 'no reason recorded'}.`;
	}
}

function failedWords(row: RecipientRecord): string {
	const error = row.error ?? '';
	if (/chat not found/i.test(error))
		return 'Not delivered: Telegram has no chat with this person (chat not found) — they never started the bot or deleted their account.';
	const rejected = /\(400: (?:Bad Request: )?(.*)\)\s*$/i.exec(error);
	if (rejected) return `Not delivered: Telegram refused the message (${rejected[1]}).`;
	const tries = row.attempts === 1 ? '1 try' : `${row.attempts} tries`;
	return `Failed after ${tries}: ${plainFailure(error)}.`;
}

/** A Telegram or network failure as a short phrase without its status code. */
export function plainFailure(error: string): string {
	if (/\((5\d\d)\b/.test(error) || /internal server error|bad gateway|service unavailable/i.test(error))
		return 'Telegram’s servers answered with an error';
	if (/timed? ?out|ETIMEDOUT|abort/i.test(error)) return 'Telegram did not answer in time';
	if (/network|ECONNRESET|ECONNREFUSED|socket|fetch failed/i.test(error)) return 'the connection to Telegram broke';
	if (/\(429\)|too many requests|flood/i.test(error)) return 'Telegram asked the bot to slow down';
	if (/picture is gone/i.test(error)) return 'the broadcast’s picture is missing from the file store';
	return error.replace(/\(?\b\d{3}: /g, '(').replace(/^Call to '\w+' failed! /, '') || 'no reason recorded';
}
