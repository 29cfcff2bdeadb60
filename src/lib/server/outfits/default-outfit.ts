import type { OutfitSnapshot } from '../../schemas/outfit.ts';
import { SEED_OUTFITS } from './seed-catalogue.ts';

/**
 * The outfit a job made before events gets (it has no job_snapshots row): the seed catalogue's
 * outfit of its template_id (the outfits offered then), with that outfit's own figure and colours.
 * A template id the seed does not know draws as its first outfit, so the guest still gets a
 * costumed pack.
 */
export function defaultOutfitSnapshot(templateId: string): OutfitSnapshot {
	const outfit = SEED_OUTFITS.find((o) => o.id === templateId) ?? SEED_OUTFITS[0]!;
	return structuredClone(outfit);
}
