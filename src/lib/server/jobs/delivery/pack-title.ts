import type { Locale } from '../../../i18n/locale.ts';
import { generationText } from '../../../i18n/generation.ts';

/**
 * The title of a guest's sticker set, from the event's template: {event} is the event's name,
 * {first_name} the guest's Telegram first name, {pack_title} the localised default title. Telegram
 * allows 1–64 characters; the title is cut on a character boundary (never inside an emoji or a
 * letter with its accent) and falls back to the default title when the template leaves nothing.
 */
export const PACK_TITLE_MAX = 64;

export interface PackTitleInput {
	event: string;
	firstName: string | null;
	locale: Locale;
}

export function packTitle(template: string, input: PackTitleInput): string {
	const fallback = generationText(input.locale, 'pack_title');
	const values: Record<string, string> = {
		event: input.event,
		first_name: input.firstName ?? '',
		pack_title: fallback
	};
	const filled = template.replace(/\{(event|first_name|pack_title)\}/g, (_, key: string) => values[key] ?? '');
	const title = trimSeparators(cutToCharacters(trimSeparators(filled.replace(/\s+/g, ' ')), PACK_TITLE_MAX));
	return title || fallback;
}

/** A guest without a first name leaves "{event} · " behind: the dangling separator goes too. */
function trimSeparators(text: string): string {
	return text.replace(/^[\s·•|,:;–—-]+|[\s·•|,:;–—-]+$/g, '');
}

/** Whole user-perceived characters (grapheme clusters), so the cut never splits one. */
function cutToCharacters(text: string, max: number): string {
	if (text.length <= max) return text;
	let out = '';
	for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)) {
		if ((out + segment).length > max) break;
		out += segment;
	}
	return out;
}
