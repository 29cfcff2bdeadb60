import type { Rgb } from './sticker-grid.ts';

/**
 * A second look at a matted figure's edge. The alpha ramp on colour distance is blind to how far
 * the figure's own colour is from the sheet's, so the last pixel or two of an edge (a blend of
 * both, by anti-aliasing and by the resize) can come out opaque with the sheet colour still in it:
 * a thin dark-green rim inside the outline. Where such a pixel is, within a tolerance, a blend of
 * the sheet colour and the figure colour just inside it, the blend share is its alpha and the sheet
 * colour is taken out with it. Pixels that are no such blend (a thin line of another colour) keep
 * what the ramp gave them.
 */
export interface EdgeJob {
	/** The figure's RGB as matted (width × height), and the canvas it was matted onto. */
	rgb: Buffer;
	width: number;
	height: number;
	rgba: Buffer;
	/** The ramp's alpha on the canvas; read only, so every pixel is judged on the same evidence. */
	alpha: Buffer;
	canvasWidth: number;
	margin: number;
	background: Rgb;
}

/** How far (colour distance) an edge pixel may be from the sheet–figure blend line and still count as a blend. */
const BLEND_TOLERANCE = 24;
/** Figure colours closer than this to the sheet's give no reliable blend share; the ramp stays. */
const MIN_CONTRAST = 100;

export function refineEdges(job: EdgeJob): void {
	const { rgb, rgba, alpha, width, canvasWidth, margin } = job;
	const { r, g, b } = job.background;
	for (let y = 0; y < job.height; y++) refineRow(rgb, rgba, alpha, y, width, canvasWidth, margin, r, g, b);
}

/**
 * One row, like the matte's: a function per row so V8 optimises it within the first figure, with
 * plain arguments rather than the job object (whose field assumptions V8 kept invalidating).
 */
function refineRow(
	rgb: Buffer,
	rgba: Buffer,
	alpha: Buffer,
	y: number,
	width: number,
	cw: number,
	margin: number,
	br: number,
	bg: number,
	bb: number
): void {
	let p = (y + margin) * cw + margin;
	for (let x = 0; x < width; x++, p++) {
		const a = alpha[p]!;
		if (a === 0) continue;
		const left = alpha[p - 1]!,
			right = alpha[p + 1]!,
			up = alpha[p - cw]!,
			down = alpha[p + cw]!;
		if (a === 255 && (left & right & up & down) === 255) continue; // inside the figure
		// Inward is up the alpha slope; the figure's own colour is two (or three) pixels that way.
		const gx = right - left,
			gy = down - up;
		if (gx === 0 && gy === 0) continue;
		const across = Math.abs(gx) >= Math.abs(gy);
		const sign = (across ? gx : gy) > 0 ? 1 : -1;
		// One step inward on the canvas, and the same step in `rgb` (the canvas less its margins).
		const step = across ? sign : sign * cw;
		const sourceStep = across ? sign * 3 : sign * width * 3;
		let steps = 2;
		if (alpha[p + 2 * step] !== 255) steps = 3;
		if (alpha[p + steps * step] !== 255) continue;
		const i = (y * width + x) * 3;
		unblend(rgb, rgba, i, i + steps * sourceStep, p * 4, br, bg, bb);
	}
}

/** Pixel `i` of `rgb` as a blend of the sheet colour and the figure colour at `f`, if it is one, into `rgba` at `o`. */
function unblend(rgb: Buffer, rgba: Buffer, i: number, f: number, o: number, br: number, bg: number, bb: number): void {
	const fr = rgb[f]! - br,
		fg = rgb[f + 1]! - bg,
		fb = rgb[f + 2]! - bb;
	const contrast2 = fr * fr + fg * fg + fb * fb;
	if (contrast2 < MIN_CONTRAST * MIN_CONTRAST) return;
	const cr = rgb[i]! - br,
		cg = rgb[i + 1]! - bg,
		cb = rgb[i + 2]! - bb;
	const share = Math.min(1, Math.max(0, (cr * fr + cg * fg + cb * fb) / contrast2));
	const er = cr - share * fr,
		eg = cg - share * fg,
		eb = cb - share * fb;
	if (er * er + eg * eg + eb * eb > BLEND_TOLERANCE * BLEND_TOLERANCE) return;
	const a = Math.round(share * 255);
	if (a < 2) {
		// Four stores, not rgba.fill(): Buffer#fill's argument checks cost more than the pixel.
		rgba[o] = rgba[o + 1] = rgba[o + 2] = rgba[o + 3] = 0;
		return;
	}
	// c = a·figure + (1 − a)·sheet, solved for the figure's colour.
	rgba[o] = clamp255(Math.round(br + cr / share));
	rgba[o + 1] = clamp255(Math.round(bg + cg / share));
	rgba[o + 2] = clamp255(Math.round(bb + cb / share));
	rgba[o + 3] = a;
}

function clamp255(v: number): number {
	return v < 0 ? 0 : v > 255 ? 255 : v;
}
