import { z } from 'zod';
import { outfitSchema, type Outfit } from './outfit.ts';

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
			.optional()
	})
	.refine((e) => !e.startsOn || !e.endsOn || e.startsOn <= e.endsOn, {
		message: 'The event cannot end before it starts.',
		path: ['endsOn']
	});
export type EventFields = z.infer<typeof eventFieldsSchema>;

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
