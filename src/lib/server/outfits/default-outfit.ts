import type { OutfitFigure, OutfitSnapshot } from '../../schemas/outfit.ts';
import { findOutfit, OUTFITS } from './catalogue.ts';
import { FIGURE_PALETTES } from './outfit-art.ts';

/**
 * The outfit a job made before events gets (it has no job_snapshots row): the built-in catalogue's
 * outfit of its template_id, with that outfit's own figure and colours. A template id the
 * catalogue does not know (an outfit removed since) draws as the catalogue's first outfit, so the
 * guest still gets a costumed pack.
 */
export function defaultOutfitSnapshot(templateId: string): OutfitSnapshot {
	const outfit = findOutfit(templateId) ?? OUTFITS[0]!;
	const figure = outfit.id as OutfitFigure;
	return { id: outfit.id, emoji: outfit.emoji, title: { ...outfit.title }, prompt: outfit.prompt, palette: FIGURE_PALETTES[figure], figure, preview: null };
}
