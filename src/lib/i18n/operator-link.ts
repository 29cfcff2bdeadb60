import { formatDuration, translator } from './texts.ts';
import type { Locale } from './locale.ts';
import { en } from './operator-link/en.ts';
import { ru } from './operator-link/ru.ts';
import { uz } from './operator-link/uz.ts';

/** The bot's answers to /link (an operator proving a Telegram chat is theirs). */
export type OperatorLinkTextKey = keyof typeof en;

export const operatorLinkText = translator<typeof en>({ en, ru, uz });

/** "Try again in 12 min" in the reader's language. */
export function lockedText(locale: Locale, retryAfterSeconds: number): string {
	return operatorLinkText(locale, 'locked', {
		wait: formatDuration((key, vars) => operatorLinkText(locale, key, vars), retryAfterSeconds)
	});
}
