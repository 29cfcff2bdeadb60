import { NEWS_COMMAND_WORDING_VERSION } from '../../i18n/news.ts';
import type { Db } from '../db/client.ts';
import { findGuest } from '../guests/guest-profile.ts';
import type { Clock } from '../time/clock.ts';
import { findNewsOptIn, recordOwnChoice, recordQuestionAnswer } from './news-opt-ins.repository.ts';

/** Callback data of the question's buttons: the answer and the wording version the guest saw. */
export const NEWS_ANSWER_PATTERN = /^news:(yes|no):(news-question-\d{1,4})$/;

export function newsAnswerData(answer: 'yes' | 'no', wordingVersion: string): string {
	return `news:${answer}:${wordingVersion}`;
}

export type AnswerOutcome = 'yes' | 'no' | 'already';

/**
 * Yes or No under the question. Only an open question takes it: a guest who answered, or used
 * /news or /stop meanwhile, keeps that choice (their own command is the later word). The
 * version comes from the pressed button, so the record names the words on the guest's screen.
 */
export async function answerNewsQuestion(
	db: Db,
	clock: Clock,
	telegramUserId: bigint,
	answer: 'yes' | 'no',
	wordingVersion: string,
	locale: string
): Promise<AnswerOutcome> {
	const row = await findNewsOptIn(db, telegramUserId);
	if (row?.state !== 'asked') return 'already';
	const choice = {
		state: answer === 'yes' ? ('in' as const) : ('out' as const),
		via: 'button' as const,
		wordingVersion,
		locale: row.locale ?? locale
	};
	const recorded = await recordQuestionAnswer(db, telegramUserId, choice, clock.now().toISOString());
	return recorded ? answer : 'already';
}

export type NewsCommandOutcome = 'on' | 'already' | 'unknown';

/**
 * /news: the guest asks for news themselves. Only a guest we know (a users row: they started the
 * bot from a kiosk) — a stranger's /news would leave a row no guest erasure reaches.
 */
export async function turnNewsOn(
	db: Db,
	clock: Clock,
	telegramUserId: bigint,
	locale: string
): Promise<NewsCommandOutcome> {
	if (!(await findGuest(db, telegramUserId))) return 'unknown';
	const choice = {
		state: 'in' as const,
		via: 'news_command' as const,
		wordingVersion: NEWS_COMMAND_WORDING_VERSION,
		locale
	};
	return (await recordOwnChoice(db, telegramUserId, choice, clock.now().toISOString())) ? 'on' : 'already';
}
