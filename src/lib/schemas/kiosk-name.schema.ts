import { z } from 'zod';

/**
 * A kiosk's name, as the console and `npm run kiosk:add` take it: what staff call the tablet
 * ("Hall A", "entrance-2"). Letters of any script, digits, spaces and `_ . -`; unique among kiosks.
 */
export const KIOSK_NAME_MAX = 60;
export const KIOSK_NAME_PATTERN = /^[\p{L}\p{N}_ .-]+$/u;

export const kioskNameSchema = z
	.string()
	.trim()
	.min(1, { message: 'Give the kiosk a name.' })
	.max(KIOSK_NAME_MAX, { message: `A kiosk name has at most ${KIOSK_NAME_MAX} characters.` })
	.regex(KIOSK_NAME_PATTERN, { message: 'A kiosk name may have letters, digits, spaces and _ . - only.' });

export type KioskName = z.infer<typeof kioskNameSchema>;
