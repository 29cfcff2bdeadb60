import { z } from 'zod';

/**
 * The answers the vision calls ask for, as zod schemas: the same schema is sent to the model as
 * `responseJsonSchema` and validates what comes back. Sent, every field is required (JSON Schema
 * of the parsed shape); read, a field with a default may be missing, and a verdict list is read
 * entry by entry, so one malformed sticker verdict costs that sticker's verdict, not the review.
 */
export const AppearanceAnswer = z.object({
	summary: z.string().min(1).describe('one sentence an illustrator can draw from'),
	hair: z.string().optional(),
	face: z.string().optional(),
	accessories: z.string().optional()
});

export const AnchorReviewAnswer = z.object({
	ok: z.boolean().describe('the drawing clearly shows the same single person in one full figure'),
	likeness: z.number().default(0).describe('0..1'),
	notes: z.array(z.string()).default([])
});

export const StickerVerdictAnswer = z.object({
	n: z.number().int().describe('the sticker number on the contact sheet'),
	ok: z.boolean(),
	likeness: z.number().default(0).describe('0..1, likeness to the anchor'),
	onePerson: z.boolean().default(true),
	cropped: z.boolean().default(false),
	notes: z.array(z.string()).default([])
});

export const VerdictsAnswer = z.object({ stickers: z.array(StickerVerdictAnswer) });

/** What a verdict answer must at least be before its entries are read one by one. */
export const VerdictListAnswer = z.object({ stickers: z.array(z.unknown()) });

/** The JSON Schema keywords responseJsonSchema takes (GenerateContentConfig); others are dropped, not risked. */
const SUPPORTED = new Set([
	'$id',
	'$defs',
	'$ref',
	'$anchor',
	'type',
	'format',
	'title',
	'description',
	'enum',
	'items',
	'prefixItems',
	'minItems',
	'maxItems',
	'minimum',
	'maximum',
	'anyOf',
	'oneOf',
	'properties',
	'additionalProperties',
	'required',
	'propertyOrdering'
]);

/** JSON Schema for `responseJsonSchema`: zod's, in the keywords the API supports. */
export function responseSchemaOf(schema: z.ZodType): Record<string, unknown> {
	return keepSupported(z.toJSONSchema(schema)) as Record<string, unknown>;
}

function keepSupported(node: unknown): unknown {
	if (Array.isArray(node)) return node.map(keepSupported);
	if (!node || typeof node !== 'object') return node;
	const out: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(node)) {
		if (!SUPPORTED.has(key)) continue;
		// zod bounds every integer by the safe-integer range; that says nothing to a model.
		if ((key === 'minimum' || key === 'maximum') && Math.abs(Number(value)) === Number.MAX_SAFE_INTEGER) continue;
		out[key] =
			key === 'properties' || key === '$defs' ? mapValues(value as Record<string, unknown>) : keepSupported(value);
	}
	return out;
}

function mapValues(record: Record<string, unknown>): Record<string, unknown> {
	return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, keepSupported(v)]));
}
