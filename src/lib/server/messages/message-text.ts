/**
 * What of a message's text may be kept. History is for an operator reading a conversation, not an
 * archive: an excerpt is enough, and anything that works as a key must never be stored. A /start
 * payload is a kiosk session token (whoever holds it could link the session), so it is dropped,
 * and so is a `start=` parameter inside a deep link the bot may send. A /link code proves an
 * operator's chat (auth/operator-telegram.ts), so it is dropped as well.
 */
export const MESSAGE_EXCERPT_CHARS = 500;

const START_COMMAND = /^\/start(@\w+)?(\s|$)/i;
const LINK_COMMAND = /^\/link(@\w+)?(\s|$)/i;
const DEEP_LINK_PAYLOAD = /([?&]start(?:group)?=)[^\s&]+/gi;

/** Trims to the excerpt length on a character boundary, with an ellipsis when something was cut. */
export function excerptOf(text: string | undefined | null): string | null {
	if (text === undefined || text === null) return null;
	const clean = text.replace(DEEP_LINK_PAYLOAD, '$1…').trim();
	if (clean === '') return null;
	const chars = [...clean];
	return chars.length <= MESSAGE_EXCERPT_CHARS ? clean : `${chars.slice(0, MESSAGE_EXCERPT_CHARS - 1).join('')}…`;
}

/** A command as stored: `/start` and `/link` lose their argument; other commands keep theirs. */
export function commandExcerpt(text: string): string | null {
	if (START_COMMAND.test(text)) return '/start';
	if (LINK_COMMAND.test(text)) return '/link';
	return excerptOf(text);
}
