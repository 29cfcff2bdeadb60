import { describe, expect, it } from 'vitest';
import { outfitSchema } from '../../schemas/outfit.ts';
import { SEED_OUTFITS as OUTFITS } from './seed-catalogue.ts';
import { defaultOutfitSnapshot } from './default-outfit.ts';
import { costumeSvgParts, outfitArtSvg } from './outfit-art.ts';

describe('the built-in outfits as job snapshots', () => {
	it('each is a valid outfit drawn as its own figure in its own colours', () => {
		for (const outfit of OUTFITS) {
			const snapshot = outfitSchema.parse(defaultOutfitSnapshot(outfit.id));
			expect(snapshot).toMatchObject({ id: outfit.id, figure: outfit.id, prompt: outfit.prompt });
		}
		expect(defaultOutfitSnapshot('wizard').palette.body).toBe('#5a189a');
	});

	it('a template id the catalogue no longer knows draws as its first outfit', () => {
		expect(defaultOutfitSnapshot('tuxedo')).toEqual(defaultOutfitSnapshot(OUTFITS[0]!.id));
	});

	it("recolours a costume with the outfit's palette", () => {
		const palette = { background: ['#000000', '#111111'] as [string, string], body: '#123456', trim: '#abcdef' };
		const parts = costumeSvgParts('wizard', palette);
		expect(parts.behind).toContain('#123456');
		expect(parts.headwear).toContain('#abcdef');
		expect(parts.behind + parts.headwear).not.toContain('#5a189a');
		expect(outfitArtSvg('wizard', palette, 'x')).toContain('stop-color="#000000"');
	});
});
