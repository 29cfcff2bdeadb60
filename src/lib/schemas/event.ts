import { z } from 'zod';
import { outfitSchema, type Outfit } from './outfit.ts';
import { accentProblem, normaliseHex } from './brand-colours.ts';

/** What operators type about an event and its catalogue; shared by the console page and the server. */

export const EVENT_STATES = ['draft', 'live', 'ended'] as const;
export type EventState = (typeof EVENT_STATES)[number];

export const CAPTION_COUNT = 12;
/** How many of the twelve stickers move when an event does not say (issue #28: three of the twelve). */
export const DEFAULT_ANIMATED_STICKERS = 3;
const ANIMATED_TEXT = `The number of moving stickers is a whole number from 0 to ${CAPTION_COUNT}.`;

const day = z
	.string()
	.regex(/^\d{4}-\d{2}-\d{2}$/, 'A date is written as YYYY-MM-DD.')
	.nullable();
const captionList = z
	.array(z.string().trim().min(1, 'A caption cannot be empty.').max(40, 'A caption has at most 40 characters.'))
	.length(
		CAPTION_COUNT,
		`Give exactly ${CAPTION_COUNT} captions for a language (one per line), or leave it empty for the built-in ones.`
	);

/** A colour as `#rrggbb` (`#abc` and upper case accepted and normalised); empty = none. */
function brandColour(which: 'primary' | 'accent') {
	return z
		.string()
		.nullish()
		.transform((value, ctx) => {
			if (value === null || value === undefined || value.trim() === '') return null;
			const hex = normaliseHex(value);
			if (!hex)
				ctx.addIssue({
					code: 'custom',
					message: `The ${which} colour is written as #rrggbb, for example #1d1b4b (it was "${value}").`
				});
			return hex;
		});
}

/** The event's sticker captions per language; a language left out uses the built-in captions. */
export const eventCaptionsSchema = z.object({ ru: captionList, uz: captionList, en: captionList }).partial();
export type EventCaptions = z.infer<typeof eventCaptionsSchema>;

export const eventFieldsSchema = z
	.object({
		name: z.string().trim().min(1, 'Give the event a name.').max(80, 'An event name has at most 80 characters.'),
		startsOn: day,
		endsOn: day,
		titleTemplate: z
			.string()
			.trim()
			.min(1, 'The sticker-set title cannot be empty.')
			.max(120, 'The title template has at most 120 characters.'),
		/** null = the built-in captions. */
		captions: eventCaptionsSchema.nullable(),
		/** How many of the pack's stickers move (video stickers made from the drawn ones); left out: unchanged (3 for a new event). */
		animatedStickers: z
			.number({ message: ANIMATED_TEXT })
			.int(ANIMATED_TEXT)
			.min(0, ANIMATED_TEXT)
			.max(CAPTION_COUNT, ANIMATED_TEXT)
			.optional(),
		/** The kiosk's colours for this event; null (or left out) = the kiosk's own. */
		brandPrimary: brandColour('primary'),
		brandAccent: brandColour('accent')
	})
	.refine((e) => !e.startsOn || !e.endsOn || e.startsOn <= e.endsOn, {
		message: 'The event cannot end before it starts.',
		path: ['endsOn']
	})
	.superRefine((e, ctx) => {
		const problem = accentProblem(e.brandPrimary, e.brandAccent);
		if (problem) ctx.addIssue({ code: 'custom', path: ['brandAccent'], message: problem });
	});
/** The brand colours may be left out (callers that predate them): a new event then has none, an update keeps its own. */
export type EventFields = Omit<z.infer<typeof eventFieldsSchema>, 'brandPrimary' | 'brandAccent'> &
	Partial<Pick<z.infer<typeof eventFieldsSchema>, 'brandPrimary' | 'brandAccent'>>;

/** A catalogue as saved or published: at least one outfit, every id once. */
export const catalogueSchema = z
	.array(outfitSchema)
	.min(1, 'A catalogue needs at least one outfit.')
	.max(24, 'A catalogue has at most 24 outfits.')
	.superRefine((outfits: Outfit[], ctx) => {
		const seen = new Set<string>();
		for (const [index, outfit] of outfits.entries()) {
			if (seen.has(outfit.id))
				ctx.addIssue({
					code: 'custom',
					path: [index, 'id'],
					message: `Two outfits share the id "${outfit.id}": each outfit needs its own.`
				});
			seen.add(outfit.id);
		}
	});
