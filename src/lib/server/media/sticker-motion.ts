import sharp, { type OverlayOptions } from 'sharp';
import { STICKER_VARIANTS } from './sticker-variants.ts';

/**
 * How an animated sticker moves. Every motion is made from the sticker already drawn and cut (no
 * second paid drawing): the figure is scaled, squashed, turned and moved frame by frame, and
 * `sparkle` adds twinkling stars around it. Each motion is periodic over the clip, so it loops
 * without a jump.
 */
export type Motion = 'wave' | 'bounce' | 'squash' | 'sparkle';

/**
 * Frames per second and length of a clip: inside Telegram's ≤ 30 fps and ≤ 3 s. One second is one
 * loop of every motion (Telegram plays a video sticker in a loop), so a longer clip would only
 * repeat it and double the drawing and encoding on the guest's wait.
 */
export const MOTION_FPS = 20;
export const MOTION_SECONDS = 1;
export const MOTION_FRAMES = MOTION_FPS * MOTION_SECONDS;

/**
 * Which stickers move when an event asks for N: the first N of this order (variant keys), chosen so
 * the motion fits what the sticker says (a wave for "Hi!", a bounce for "party").
 */
const ANIMATION_ORDER: readonly { key: string; motion: Motion }[] = [
	{ key: 'hello', motion: 'wave' },
	{ key: 'party', motion: 'bounce' },
	{ key: 'love', motion: 'sparkle' },
	{ key: 'wow', motion: 'squash' },
	{ key: 'lol', motion: 'bounce' },
	{ key: 'yes', motion: 'wave' },
	{ key: 'cool', motion: 'sparkle' },
	{ key: 'thanks', motion: 'squash' },
	{ key: 'ok', motion: 'wave' },
	{ key: 'oops', motion: 'squash' },
	{ key: 'hmm', motion: 'sparkle' },
	{ key: 'sleepy', motion: 'bounce' }
];

export const MAX_ANIMATED_STICKERS = ANIMATION_ORDER.length;
export { DEFAULT_ANIMATED_STICKERS } from '../../schemas/event.ts';

/** Sticker numbers (1-based, pack order) that move when an event asks for `count`, ascending. */
export function animatedStickerNumbers(count: number): number[] {
	const wanted = Math.max(0, Math.min(MAX_ANIMATED_STICKERS, Math.floor(count)));
	return ANIMATION_ORDER.slice(0, wanted)
		.map(({ key }) => STICKER_VARIANTS.findIndex((v) => v.key === key) + 1)
		.sort((a, b) => a - b);
}

/** The motion of sticker n (the same for its first animation and any redraw). */
export function motionOf(n: number): Motion {
	const key = STICKER_VARIANTS[n - 1]?.key;
	return ANIMATION_ORDER.find((entry) => entry.key === key)?.motion ?? 'bounce';
}

/** The figure at rest fills this share of the canvas, leaving room to move without being clipped. */
const REST_SCALE = 0.84;

interface Pose {
	scaleX: number;
	scaleY: number;
	/** Degrees, clockwise. */
	angle: number;
	/** Offset of the figure's centre, as a share of the canvas. */
	dx: number;
	dy: number;
	/** 0–1: how bright the sparkles are (sparkle only). */
	sparkle: number;
}

/** The figure's pose at phase p ∈ [0, 1) of the loop. */
export function poseAt(motion: Motion, p: number): Pose {
	const turn = 2 * Math.PI * p;
	const still: Pose = { scaleX: 1, scaleY: 1, angle: 0, dx: 0, dy: 0, sparkle: 0 };
	switch (motion) {
		case 'wave':
			// One swing a second, like a hand waving, the body leaning with it.
			return { ...still, angle: 7 * Math.sin(turn) };
		case 'bounce': {
			// Two hops a second; squashed on landing, stretched in the air.
			const height = Math.abs(Math.sin(turn));
			return { ...still, dy: -0.06 * height, scaleX: 1 + 0.05 * (1 - height), scaleY: 1 - 0.05 * (1 - height) };
		}
		case 'squash': {
			// A wink-like squeeze: quick squash, then a springy return.
			const s = Math.sin(turn) * Math.exp(-2 * p);
			return { ...still, scaleX: 1 + 0.07 * s, scaleY: 1 - 0.07 * s };
		}
		case 'sparkle':
			return { ...still, scaleX: 1 + 0.02 * Math.sin(turn), scaleY: 1 + 0.02 * Math.sin(turn), sparkle: p };
	}
}

/** A still sticker decoded once (raw RGBA) for drawing its frames. */
export interface FigureSource {
	raw: Buffer;
	width: number;
	height: number;
}

export async function figureSource(png: Buffer): Promise<FigureSource> {
	const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
	return { raw: data, width: info.width, height: info.height };
}

/**
 * Frame i of sticker `figure` moving with `motion`: raw RGBA of the sticker's own size (one side
 * 512). Frames are drawn one at a time, so a clip never holds more than one frame in memory. Scale
 * and turn are one affine step on raw pixels (no PNG round trips: they cost more than the encode).
 */
export async function renderFrame(figure: FigureSource, motion: Motion, i: number): Promise<Buffer> {
	const { width, height } = figure;
	const pose = poseAt(motion, i / MOTION_FRAMES);
	const sx = REST_SCALE * pose.scaleX;
	const sy = REST_SCALE * pose.scaleY;
	const rad = (pose.angle * Math.PI) / 180;
	const transparent = { r: 0, g: 0, b: 0, alpha: 0 };
	const { data: body, info } = await sharp(figure.raw, { raw: { width, height, channels: 4 } })
		.affine(
			[
				[sx * Math.cos(rad), -sy * Math.sin(rad)],
				[sx * Math.sin(rad), sy * Math.cos(rad)]
			],
			{ background: transparent, interpolator: 'bilinear' }
		)
		.raw()
		.toBuffer({ resolveWithObject: true });
	// Never larger than the canvas (sharp's composite refuses that): the rest scale leaves room, the crop is a guard.
	const fw = Math.min(info.width, width);
	const fh = Math.min(info.height, height);
	const fitted =
		fw === info.width && fh === info.height
			? body
			: await sharp(body, { raw: { width: info.width, height: info.height, channels: 4 } })
					.extract({
						left: Math.floor((info.width - fw) / 2),
						top: Math.floor((info.height - fh) / 2),
						width: fw,
						height: fh
					})
					.raw()
					.toBuffer();
	// Squashes keep the feet on the ground: the figure is anchored near the bottom, not the centre.
	const left = clamp(Math.round((width - fw) / 2 + pose.dx * width), 0, width - fw);
	const top = clamp(Math.round(height - fh - height * (1 - REST_SCALE) * 0.5 + pose.dy * height), 0, height - fh);
	const layers: OverlayOptions[] = [{ input: fitted, raw: { width: fw, height: fh, channels: 4 }, left, top }];
	if (motion === 'sparkle') layers.push({ input: sparkles(width, height, pose.sparkle), left: 0, top: 0 });
	return sharp({ create: { width, height, channels: 4, background: transparent } })
		.composite(layers)
		.raw()
		.toBuffer();
}

/** Four-pointed stars at fixed places, each twinkling in its own phase. */
function sparkles(width: number, height: number, p: number): Buffer {
	const spots = [
		[0.12, 0.14, 0],
		[0.86, 0.2, 0.25],
		[0.9, 0.7, 0.5],
		[0.1, 0.62, 0.75],
		[0.5, 0.06, 0.4]
	] as const;
	const stars = spots
		.map(([x, y, phase]) => {
			const glow = Math.max(0, Math.sin(2 * Math.PI * (p + phase)));
			const r = 6 + 16 * glow;
			const cx = x * width;
			const cy = y * height;
			const q = r * 0.28;
			const d = `M${cx},${cy - r} L${cx + q},${cy - q} L${cx + r},${cy} L${cx + q},${cy + q} L${cx},${cy + r} L${cx - q},${cy + q} L${cx - r},${cy} L${cx - q},${cy - q} Z`;
			return `<path d="${d}" fill="#fff6a8" stroke="#f5b400" stroke-width="2" opacity="${(0.2 + 0.8 * glow).toFixed(2)}"/>`;
		})
		.join('');
	return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${stars}</svg>`);
}

function clamp(value: number, min: number, max: number): number {
	return Math.min(Math.max(value, min), Math.max(min, max));
}
