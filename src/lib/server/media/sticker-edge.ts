import type { Rgb } from './sticker-mask.ts';

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
	for (let y = 0; y < job.height; y++) refineRow(job, y);
}

/** A function per row, like the matte's, so V8 optimises it within the first figure. */
function refineRow(job: EdgeJob, y: number): void {
	const { alpha, canvasWidth: cw, margin } = job;
	let p = (y + margin) * cw + margin;
	for (let x = 0; x < job.width; x++, p++) {
		const a = alpha[p]!;
		if (a === 0) continue;
		const left = alpha[p - 1]!, right = alpha[p + 1]!, up = alpha[p - cw]!, down = alpha[p + cw]!;
		if (a === 255 && (left & right & up & down) === 255) continue; // inside the figure
		// Inward is up the alpha slope; the figure's own colour is two (or three) pixels that way.
		const gx = right - left, gy = down - up;
		if (gx === 0 && gy === 0) continue;
		const step = Math.abs(gx) >= Math.abs(gy) ? Math.sign(gx) : Math.sign(gy) * cw;
		let inner = p + 2 * step;
		if (alpha[inner] !== 255) inner += step;
		if (alpha[inner] !== 255) continue;
		unblend(job, p, inner);
	}
}

function unblend(job: EdgeJob, p: number, inner: number): void {
	const { rgb, rgba, background: bg } = job;
	const i = sourceIndex(job, p);
	const f = sourceIndex(job, inner);
	const fr = rgb[f]! - bg.r, fg = rgb[f + 1]! - bg.g, fb = rgb[f + 2]! - bg.b;
	const contrast2 = fr * fr + fg * fg + fb * fb;
	if (contrast2 < MIN_CONTRAST * MIN_CONTRAST) return;
	const cr = rgb[i]! - bg.r, cg = rgb[i + 1]! - bg.g, cb = rgb[i + 2]! - bg.b;
	const share = Math.min(1, Math.max(0, (cr * fr + cg * fg + cb * fb) / contrast2));
	const er = cr - share * fr, eg = cg - share * fg, eb = cb - share * fb;
	if (er * er + eg * eg + eb * eb > BLEND_TOLERANCE * BLEND_TOLERANCE) return;
	const a = Math.round(share * 255);
	const o = p * 4;
	if (a < 2) {
		rgba.fill(0, o, o + 4);
		return;
	}
	// c = a·figure + (1 − a)·sheet, solved for the figure's colour.
	rgba[o] = clamp255(Math.round(bg.r + cr / share));
	rgba[o + 1] = clamp255(Math.round(bg.g + cg / share));
	rgba[o + 2] = clamp255(Math.round(bg.b + cb / share));
	rgba[o + 3] = a;
}

function sourceIndex(job: EdgeJob, p: number): number {
	const y = ((p / job.canvasWidth) | 0) - job.margin;
	const x = (p % job.canvasWidth) - job.margin;
	return (y * job.width + x) * 3;
}

function clamp255(v: number): number {
	return v < 0 ? 0 : v > 255 ? 255 : v;
}
