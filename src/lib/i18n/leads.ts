import type { LeadStatus } from '../schemas/lead-status.ts';
import type { Locale } from './locale.ts';
import { translator } from './texts.ts';
import { en } from './leads/en.ts';
import { ru } from './leads/ru.ts';
import { uz } from './leads/uz.ts';

/** What the bot says in the sales group and to lead admins; LEADS_GROUP_LOCALE picks the language. */
export type LeadTextKey = keyof typeof en;

export const leadText = translator<typeof en>({ en, ru, uz });

/** A status's name (`status_<status>`); a status we have no name for is shown as it is. */
export function statusLabel(locale: Locale, status: LeadStatus | string): string {
	const key = `status_${status}`;
	return key in en ? leadText(locale, key as LeadTextKey) : status;
}
