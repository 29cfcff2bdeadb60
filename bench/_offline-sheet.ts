import type { FigureInput } from '../src/lib/server/media/sticker-art.ts';

/** How one sheet looks: which six variants it holds (from `firstVariant`), its style, palette and outfit. */
export interface SheetLook {
	firstVariant: number;
	style: FigureInput['style'];
	palette: string;
	outfit: string;
}

/**
 * Sheets of six figures (3×2, 2048×1365) drawn from one synthetic selfie as the offline provider
 * draws them: the input the cutting and animation benches share. Imported lazily, so a bench's
 * measured child process does not load the drawing code.
 */
export async function drawOfflineSheets(looks: readonly SheetLook[]): Promise<Buffer[]> {
	const { makeSelfie } = await import('../tests/integration/generation-selfie.ts');
	const { getFaceDetector } = await import('../src/lib/server/media/face-detector.ts');
	const { drawFigure } = await import('../src/lib/server/media/sticker-art.ts');
	const { composeSheet } = await import('../src/lib/server/media/sticker-sheet.ts');
	const { paletteForOutfit } = await import('../src/lib/server/media/sticker-style.ts');
	const { STICKER_VARIANTS } = await import('../src/lib/server/media/sticker-variants.ts');
	const { defaultOutfitSnapshot } = await import('../src/lib/server/outfits/default-outfit.ts');
	const selfie = await makeSelfie();
	const face = (await (await getFaceDetector()).findFaces(selfie))[0]!;
	const sheets: Buffer[] = [];
	for (const look of looks) {
		const figures = [];
		for (let i = 0; i < 6; i++) {
			const index = look.firstVariant + i;
			figures.push(
				await drawFigure({
					selfie,
					face,
					variant: STICKER_VARIANTS[index]!,
					index,
					style: look.style,
					palette: paletteForOutfit(look.palette),
					outfit: defaultOutfitSnapshot(look.outfit),
					caption: STICKER_VARIANTS[index]!.caption.en,
					size: 640
				})
			);
		}
		sheets.push(await composeSheet(figures, { cols: 3, rows: 2, width: 2048, height: 1365 }));
	}
	return sheets;
}
