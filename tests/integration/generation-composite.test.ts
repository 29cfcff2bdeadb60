import { existsSync, readFileSync } from 'node:fs';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { getFaceDetector, type FaceBox, type FaceDetector } from '../../src/lib/server/media/face-detector.ts';
import { pasteHead, prepareHead } from '../../src/lib/server/media/head-paste.ts';
import { cutPortrait } from '../../src/lib/server/media/matte.ts';
import { drawFigure } from '../../src/lib/server/media/sticker-art.ts';
import { defaultOutfitSnapshot } from '../../src/lib/server/outfits/default-outfit.ts';
import { SHEET_BACKGROUND } from '../../src/lib/server/media/sticker-sheet.ts';
import { paletteForOutfit, STYLE_RECIPES } from '../../src/lib/server/media/sticker-style.ts';
import { STICKER_VARIANTS } from '../../src/lib/server/media/sticker-variants.ts';
import { jobFiles } from '../../src/lib/server/jobs/pipeline/job-files.ts';
import { useGenerationWorld, waitForJobStatus } from './generation-harness.ts';
import { makeSelfie } from './generation-selfie.ts';

/**
 * Composite stickers (render_mode composite / composite_fallback): the guest's head pasted over a
 * generated figure's face. First the paste itself on real drawings, then a whole offline job with
 * RENDER_MODE=composite through the worker's queue and the Telegram emulator.
 */
describe('pasting the guest’s head onto a figure', () => {
	let detector: FaceDetector;
	let selfie: Buffer;
	let face: FaceBox;
	let figure: Buffer;
	/** The same head tinted strongly blue, on the sheet's flat green: easy to find after the paste. */
	let blueHead: Buffer;
	beforeAll(async () => {
		detector = await getFaceDetector();
		selfie = await makeSelfie();
		face = (await detector.findFaces(selfie))[0]!;
		figure = await drawFigure({
			selfie,
			face,
			variant: STICKER_VARIANTS[4]!,
			index: 4,
			style: 'pop',
			palette: paletteForOutfit('tuxedo'),
			outfit: defaultOutfitSnapshot('chef'),
			caption: 'Cool',
			size: 512
		});
		const portrait = await cutPortrait(selfie, face, STYLE_RECIPES.comic, 1.25, 512);
		const tinted = await sharp(portrait.png).tint({ r: 30, g: 60, b: 255 }).png().toBuffer();
		blueHead = await sharp(tinted).flatten({ background: SHEET_BACKGROUND }).png().toBuffer();
	}, 60_000);

	it('puts the head where the figure’s face is, at its size, inside the figure’s silhouette', async () => {
		const head = await prepareHead(blueHead, detector, SHEET_BACKGROUND);
		expect(head).not.toBeNull();
		const pasted = await pasteHead(figure, head!, detector);
		expect(pasted).not.toBeNull();
		const before = await rawRgba(figure);
		const after = await rawRgba(pasted!.png);
		expect([after.width, after.height]).toEqual([before.width, before.height]);
		// The figure's face box turned blue; before it was skin and hair.
		const inFace = (img: RawImage) => meanInBox(img, pasted!.target);
		expect(inFace(after).b - inFace(after).r).toBeGreaterThan(60);
		expect(inFace(before).b - inFace(before).r).toBeLessThan(20);
		// Drawn "atop": not one pixel's alpha changed, so the cutter's outline and silhouette stay.
		expect(alphaDifferences(before, after)).toBe(0);
		// Far from the face (the caption strip at the bottom) nothing moved.
		expect(changedShare(before, after, { x: 0, y: 440, width: 512, height: 72 })).toBe(0);
		// The sheet's green was keyed out of the head: no green pixel came with it.
		expect(greenShare(after, pasted!.target)).toBeLessThan(0.01);
		// Still exactly one face, and a sticker Telegram accepts.
		expect(await detector.findFaces(pasted!.png)).toHaveLength(1);
		expect(pasted!.png.length).toBeLessThanOrEqual(512 * 1024);
	}, 60_000);

	it('refuses a head without a face, and leaves a figure without a face alone', async () => {
		const blank = await sharp({ create: { width: 400, height: 400, channels: 3, background: SHEET_BACKGROUND } })
			.png()
			.toBuffer();
		expect(await prepareHead(blank, detector, SHEET_BACKGROUND)).toBeNull();
		const faceless = await sharp({
			create: { width: 512, height: 512, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } }
		})
			.composite([
				{
					input: Buffer.from(
						'<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512"><circle cx="256" cy="256" r="200" fill="#ff8844"/></svg>'
					)
				}
			])
			.png()
			.toBuffer();
		const head = await prepareHead(blueHead, detector, SHEET_BACKGROUND);
		expect(await pasteHead(faceless, head!, detector)).toBeNull();
	}, 60_000);
});

describe('RENDER_MODE=composite with the offline provider', () => {
	const worlds = useGenerationWorld('gen-composite-');

	it('draws the head once (heads, cost 0), puts it on all 12 stickers and delivers them', async () => {
		const world = await worlds.open();
		const jobId = await world.queueJob();
		await worlds.startLoop({ RENDER_MODE: 'composite' });
		const status = await waitForJobStatus(world.db, jobId, ['done', 'failed'], 90_000);
		const job = await world.db.job.findUniqueOrThrow({ where: { jobId } });
		expect(status, job.error ?? '').toBe('done');
		expect(job.renderMode).toBe('composite');
		const heads = await world.db.apiUsage.findMany({ where: { jobId, stage: 'heads' } });
		expect(heads).toEqual([
			expect.objectContaining({ kind: 'image', provider: 'offline', ok: 1, estCostUsd: 0, images: 1 })
		]);
		const files = jobFiles(world.dataDir, jobId, job.sessionToken);
		expect(existsSync(files.head)).toBe(true);
		const log = JSON.parse(readFileSync(files.debug('heads.json'), 'utf8')) as {
			stickers: Record<string, { placed: boolean; face?: FaceBox }>;
		};
		expect(
			Object.keys(log.stickers)
				.map(Number)
				.sort((a, b) => a - b)
		).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
		expect(Object.values(log.stickers).every((s) => s.placed && s.face!.width > 20)).toBe(true);
		const set = await world.emulator.control.getStickerSet(job.packName!);
		expect(set?.stickers).toHaveLength(12);
		const messages = await world.emulator.control.chatMessages(world.guestId);
		expect(messages.filter((m) => m.text?.includes(`https://t.me/addstickers/${job.packName}`))).toHaveLength(1);
	}, 120_000);
});

interface RawImage {
	data: Buffer;
	width: number;
	height: number;
}

async function rawRgba(png: Buffer): Promise<RawImage> {
	const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
	return { data, width: info.width, height: info.height };
}

function pixelsIn(img: RawImage, box: { x: number; y: number; width: number; height: number }): number[] {
	const offsets: number[] = [];
	for (let y = Math.max(0, Math.round(box.y)); y < Math.min(img.height, Math.round(box.y + box.height)); y++) {
		for (let x = Math.max(0, Math.round(box.x)); x < Math.min(img.width, Math.round(box.x + box.width)); x++)
			offsets.push((y * img.width + x) * 4);
	}
	return offsets;
}

function meanInBox(img: RawImage, box: FaceBox): { r: number; g: number; b: number } {
	const offsets = pixelsIn(img, box).filter((i) => (img.data[i + 3] ?? 0) > 128);
	const mean = (k: number) => offsets.reduce((sum, i) => sum + (img.data[i + k] ?? 0), 0) / Math.max(1, offsets.length);
	return { r: mean(0), g: mean(1), b: mean(2) };
}

function alphaDifferences(a: RawImage, b: RawImage): number {
	let differences = 0;
	for (let i = 3; i < a.data.length; i += 4) if (a.data[i] !== b.data[i]) differences++;
	return differences;
}

function changedShare(a: RawImage, b: RawImage, box: { x: number; y: number; width: number; height: number }): number {
	const offsets = pixelsIn(a, box);
	const changed = offsets.filter(
		(i) => a.data[i] !== b.data[i] || a.data[i + 1] !== b.data[i + 1] || a.data[i + 2] !== b.data[i + 2]
	);
	return changed.length / Math.max(1, offsets.length);
}

/** Share of visible pixels around the face that are the sheet's chroma green. */
function greenShare(img: RawImage, face: FaceBox): number {
	const around = {
		x: face.x - face.width * 0.6,
		y: face.y - face.height * 0.8,
		width: face.width * 2.2,
		height: face.height * 2.4
	};
	const visible = pixelsIn(img, around).filter((i) => (img.data[i + 3] ?? 0) > 128);
	const green = visible.filter(
		(i) =>
			Math.abs((img.data[i] ?? 0) - SHEET_BACKGROUND.r) +
				Math.abs((img.data[i + 1] ?? 0) - SHEET_BACKGROUND.g) +
				Math.abs((img.data[i + 2] ?? 0) - SHEET_BACKGROUND.b) <
			60
	);
	return green.length / Math.max(1, visible.length);
}
