import sharp, { type OverlayOptions } from 'sharp';

/**
 * Renders the outfit catalogue's art (SVG from outfits/outfit-art.ts) to PNG: one preview per
 * outfit and one numbered sheet of them all, which the bot sends as a single photo.
 */
export async function renderPreviewPng(svg: string, size = 512): Promise<Buffer> {
	return sharp(Buffer.from(svg)).resize(size, size).png({ compressionLevel: 9, palette: true, quality: 90 }).toBuffer();
}

const TILE = 300;
const GAP = 16;

function badgeSvg(n: number): Buffer {
	return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><circle cx="32" cy="32" r="28" fill="#fff" stroke="#222" stroke-width="4"/>
<text x="32" y="43" font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="32" text-anchor="middle" fill="#222">${n}</text></svg>`);
}

/** The previews in a grid (`columns` wide), each numbered in catalogue order from 1. */
export async function renderCatalogueSheet(previews: Buffer[], columns = 4): Promise<Buffer> {
	const rows = Math.ceil(previews.length / columns);
	const width = columns * TILE + (columns + 1) * GAP;
	const height = rows * TILE + (rows + 1) * GAP;
	const layers: OverlayOptions[] = [];
	for (const [index, preview] of previews.entries()) {
		const left = GAP + (index % columns) * (TILE + GAP);
		const top = GAP + Math.floor(index / columns) * (TILE + GAP);
		layers.push({ input: await sharp(preview).resize(TILE, TILE).png().toBuffer(), left, top });
		layers.push({ input: badgeSvg(index + 1), left: left + 10, top: top + 10 });
	}
	return sharp({ create: { width, height, channels: 3, background: '#f1f3f5' } })
		.composite(layers)
		.jpeg({ quality: 88 })
		.toBuffer();
}
