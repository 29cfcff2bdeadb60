import { beforeAll, describe, expect, it } from 'vitest';
import { makeSelfie } from '../../../../tests/integration/generation-selfie.ts';
import type { FaceBox } from './face-detector.ts';
import { cutPortrait } from './matte.ts';
import { STYLE_RECIPES } from './sticker-style.ts';

describe("the guest's cut portrait, kept per selfie", () => {
	let selfie: Buffer;
	// A face box inside makeSelfie's 900 × 1200 photo: the cut takes it as given, it does not search.
	const face: FaceBox = { x: 330, y: 380, width: 240, height: 300, score: 1 };
	const recipe = STYLE_RECIPES.cartoon;
	beforeAll(async () => {
		selfie = await makeSelfie();
	});

	it('gives the same cut for the same selfie and arguments, and a new one for another width', async () => {
		const first = await cutPortrait(selfie, face, recipe, 1.25, 200, { shoulders: false });
		const again = await cutPortrait(selfie, face, recipe, 1.25, 200, { shoulders: false });
		const wider = await cutPortrait(selfie, face, recipe, 1.25, 240, { shoulders: false });
		expect(again).toBe(first);
		expect(wider).not.toBe(first);
		expect([first.width, wider.width]).toEqual([200, 240]);
	});

	it('cuts another buffer anew, to the same pixels: a kept cut is the one a new cut would make', async () => {
		const copy = Buffer.from(selfie);
		const kept = await cutPortrait(selfie, face, recipe, 1, 180);
		const fresh = await cutPortrait(copy, face, recipe, 1, 180);
		expect(fresh).not.toBe(kept);
		expect(fresh.png.equals(kept.png)).toBe(true);
	});

	it('keeps no failed cut: the next call tries again', async () => {
		const unreadable = Buffer.from('not an image');
		const first = cutPortrait(unreadable, face, recipe, 1, 180);
		await expect(first).rejects.toThrow();
		const second = cutPortrait(unreadable, face, recipe, 1, 180);
		expect(second).not.toBe(first);
		await expect(second).rejects.toThrow();
	});
});
