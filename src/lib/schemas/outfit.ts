import { z } from 'zod';

/**
 * An outfit of an event's catalogue, as operators edit it and as a job keeps it (job_snapshots.
 * outfit_json): the prompt text and palette go to every image provider, `figure` is the costume
 * the offline provider draws (recoloured with the palette). Shared by the console (browser) and
 * the server, so both validate with the same rules.
 */

/** Short and plain: the id travels in the bot's callback data, which Telegram caps at 64 bytes. */
export const OUTFIT_ID_MAX = 16;
export const outfitIdSchema = z
	.string()
	.trim()
	.regex(
		/^[a-z0-9][a-z0-9_-]*$/,
		'An outfit id uses lower-case letters, digits, "-" and "_", and starts with a letter or digit.'
	)
	.max(OUTFIT_ID_MAX, `An outfit id has at most ${OUTFIT_ID_MAX} characters.`);

/** The costumes the offline provider can draw; an operator's new outfit picks the closest one. */
export const OUTFIT_FIGURES = [
	'astronaut',
	'superhero',
	'chef',
	'pirate',
	'wizard',
	'knight',
	'rockstar',
	'chapan'
] as const;
export type OutfitFigure = (typeof OUTFIT_FIGURES)[number];

const colour = z.string().regex(/^#[0-9a-f]{6}$/i, 'A colour is written as #rrggbb.');

export const outfitPaletteSchema = z.object({
	/** Preview background gradient, top to bottom. */
	background: z.tuple([colour, colour]),
	/** The costume's main colour and its trim. */
	body: colour,
	trim: colour
});
export type OutfitPalette = z.infer<typeof outfitPaletteSchema>;

const title = z
	.string()
	.trim()
	.min(1, 'Every outfit needs a title in each language.')
	.max(40, 'An outfit title has at most 40 characters.');

export const outfitSchema = z.object({
	id: outfitIdSchema,
	emoji: z.string().trim().min(1, 'Pick an emoji for the outfit.').max(16),
	title: z.object({ ru: title, uz: title, en: title }),
	prompt: z
		.string()
		.trim()
		.min(10, 'Describe the costume for the image model in a few words (10 characters or more).')
		.max(400),
	palette: outfitPaletteSchema,
	figure: z.enum(OUTFIT_FIGURES),
	/** The operator's uploaded preview, as the console stored it (hash-named PNG); null = drawn from figure + palette. */
	preview: z
		.string()
		.regex(/^[0-9a-f]{32}\.png$/, 'Upload the preview picture again: that is not a picture the console stored.')
		.nullable()
});
export type Outfit = z.infer<typeof outfitSchema>;

/** What a job keeps of its outfit: the outfit exactly as published in the job's catalogue version. */
export type OutfitSnapshot = Outfit;
