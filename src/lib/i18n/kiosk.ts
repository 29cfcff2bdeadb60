import type { Locale } from './locale.ts';
import { formatDuration, translator } from './texts.ts';
import { en } from './kiosk/en.ts';
import { ru } from './kiosk/ru.ts';
import { uz } from './kiosk/uz.ts';

/** Everything the kiosk screen says. The browser imports this: it holds no server code. */
export type KioskTextKey = keyof typeof en;

export const kioskText = translator<typeof en>({ en, ru, uz });

/** Maps an API error code to its sentence; unknown codes get the general one. */
export function kioskErrorText(locale: Locale, code: string | null | undefined): string {
	const key = `err_${code ?? 'other'}`;
	return key in en ? kioskText(locale, key as KioskTextKey) : kioskText(locale, 'err_other');
}

export function kioskDuration(locale: Locale, seconds: number): string {
	return formatDuration((key, vars) => kioskText(locale, key, vars), seconds);
}
