import { translator } from './texts.ts';
import { en } from './news/en.ts';
import { ru } from './news/ru.ts';
import { uz } from './news/uz.ts';

/** The news opt-in's words: the question after a pack, its answers, /news. */
export type NewsTextKey = keyof typeof en;

export const newsText = translator<typeof en>({ en, ru, uz });

/**
 * Which words a recorded choice was made under (news_opt_ins.wording_version). A new wording of
 * the question or its buttons gets a new version; news.spec.ts pins each version to its words in
 * every language, so changed words without a new version fail the tests.
 */
export const NEWS_QUESTION_WORDING_VERSION = 'news-question-1';
/** The words of /news's confirmation (`newsOn`). */
export const NEWS_COMMAND_WORDING_VERSION = 'news-command-1';

/** The texts each version covers, in every language (what news.spec.ts fingerprints). */
export const NEWS_QUESTION_KEYS = [
	'question',
	'questionNoEvent',
	'yes',
	'no'
] as const satisfies readonly NewsTextKey[];
export const NEWS_COMMAND_KEYS = ['newsOn'] as const satisfies readonly NewsTextKey[];
