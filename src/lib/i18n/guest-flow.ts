import type { ClosedReason } from '../schemas/kiosk.ts';
import type { Locale } from './locale.ts';
import { formatDuration, translator } from './texts.ts';
import { en } from './guest-flow/en.ts';
import { ru } from './guest-flow/ru.ts';
import { uz } from './guest-flow/uz.ts';

/** What the bot says to guests in the kiosk flow, from /start to "Generating…". */
export type GuestTextKey = keyof typeof en;

export const guestText = translator<typeof en>({ en, ru, uz });

export function closedText(locale: Locale, reason: ClosedReason | null): string {
	return guestText(locale, reason ? (`closed_${reason}` as GuestTextKey) : 'closed_other');
}

/** "about 90 s" / "about 3 min" in the guest's language. */
export function durationText(locale: Locale, seconds: number): string {
	return formatDuration((key, vars) => guestText(locale, key, vars), seconds);
}
