import { captionText, type CaptionLayout } from './caption-fit.ts';
import type { BadgeShape, Decoration } from './sticker-variants.ts';

/** SVG pieces of an offline sticker: the badge behind the guest, the emoji-themed decorations, the caption. */

export function badgeSvg(shape: BadgeShape, size: number, fill: string, ink: string): string {
	const c = size / 2;
	const stroke = `stroke="${ink}" stroke-width="${size * 0.018}"`;
	switch (shape) {
		case 'circle':
			return `<circle cx="${c}" cy="${c * 0.96}" r="${size * 0.4}" fill="${fill}" ${stroke}/>`;
		case 'rounded':
			return `<rect x="${size * 0.12}" y="${size * 0.1}" width="${size * 0.76}" height="${size * 0.72}" rx="${size * 0.12}" fill="${fill}" ${stroke} transform="rotate(-4 ${c} ${c})"/>`;
		case 'burst':
			return `<polygon points="${starPoints(c, c * 0.95, size * 0.44, size * 0.34, 14)}" fill="${fill}" ${stroke}/>`;
		case 'star':
			return `<polygon points="${starPoints(c, c * 0.98, size * 0.46, size * 0.27, 5)}" fill="${fill}" ${stroke} stroke-linejoin="round"/>`;
		case 'heart':
			return `<path d="${heartPath(c, size * 0.17, size * 0.82)}" fill="${fill}" ${stroke}/>`;
		case 'bubble':
			return `<path d="M ${size * 0.14} ${size * 0.12} h ${size * 0.72} a ${size * 0.08} ${size * 0.08} 0 0 1 ${size * 0.08} ${size * 0.08} v ${size * 0.5} a ${size * 0.08} ${size * 0.08} 0 0 1 -${size * 0.08} ${size * 0.08} h -${size * 0.44} l -${size * 0.14} ${size * 0.1} v -${size * 0.1} h -${size * 0.14} a ${size * 0.08} ${size * 0.08} 0 0 1 -${size * 0.08} -${size * 0.08} v -${size * 0.5} a ${size * 0.08} ${size * 0.08} 0 0 1 ${size * 0.08} -${size * 0.08} z" fill="${fill}" ${stroke}/>`;
	}
}

export function decorationSvg(kind: Decoration, size: number, accent: string, ink: string): string {
	const s = size;
	const at = (x: number, y: number, scale: number, body: string) =>
		`<g transform="translate(${x * s} ${y * s}) scale(${(scale * s) / 100})">${body}</g>`;
	const heart = `<path d="${heartPath(0, -22, 40)}" fill="#ff3b6b" stroke="${ink}" stroke-width="4"/>`;
	const star = `<polygon points="${starPoints(0, 0, 24, 10, 5)}" fill="#ffd23f" stroke="${ink}" stroke-width="4" stroke-linejoin="round"/>`;
	const sparkle = `<path d="M0 -26 Q4 -4 26 0 Q4 4 0 26 Q-4 4 -26 0 Q-4 -4 0 -26 Z" fill="#fff6a8" stroke="${ink}" stroke-width="3"/>`;
	const drop = `<path d="M0 -24 C10 -8 16 2 16 10 A16 16 0 0 1 -16 10 C-16 2 -10 -8 0 -24 Z" fill="#7cd3ff" stroke="${ink}" stroke-width="4"/>`;
	const text = (t: string, fill: string) =>
		`<text x="0" y="0" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-weight="bold" font-size="24" text-anchor="middle" fill="${fill}" stroke="${ink}" stroke-width="3" paint-order="stroke">${t}</text>`;
	switch (kind) {
		case 'hearts':
			return at(0.13, 0.2, 0.8, heart) + at(0.87, 0.17, 0.6, heart) + at(0.88, 0.58, 0.45, heart);
		case 'stars':
			return at(0.12, 0.14, 0.9, star) + at(0.88, 0.22, 0.7, star) + at(0.12, 0.6, 0.5, star);
		case 'sparkles':
			return at(0.12, 0.14, 0.8, sparkle) + at(0.88, 0.2, 0.6, sparkle) + at(0.89, 0.58, 0.45, sparkle);
		case 'drops':
			return at(0.86, 0.16, 0.8, drop) + at(0.13, 0.26, 0.55, drop);
		case 'bangs':
			return at(0.12, 0.3, 1.2, text('!', accent)) + at(0.86, 0.26, 1.2, text('!!', accent));
		case 'question':
			return at(0.86, 0.26, 1.3, text('?', accent)) + at(0.13, 0.32, 0.9, text('?', accent));
		case 'zzz':
			return (
				at(0.76, 0.24, 1.1, text('Z', '#9ad0ff')) +
				at(0.85, 0.15, 0.8, text('z', '#9ad0ff')) +
				at(0.92, 0.09, 0.6, text('z', '#9ad0ff'))
			);
		case 'notes':
			return at(0.12, 0.22, 1.3, text('♪', accent)) + at(0.88, 0.2, 1.1, text('♫', accent));
		case 'confetti':
			return confetti(s, ink);
		case 'rays':
			return at(0.12, 0.16, 0.8, star) + at(0.88, 0.14, 0.8, sparkle);
	}
}

/**
 * The caption as fitted (caption-fit.ts): one line on the caption strip, or two lines whose lower
 * one sits a little lower, tilted slightly like a hand-set label.
 */
export function captionSvg(layout: CaptionLayout, size: number, fill: string, ink: string): string {
	const { lines, fontSize } = layout;
	const bottom = size * (lines.length > 1 ? 0.94 : 0.93);
	const lineGap = fontSize * 1.05;
	const texts = lines.map((line, i) =>
		captionText(line, size / 2, bottom - (lines.length - 1 - i) * lineGap, fontSize, 'middle', { fill, ink })
	);
	return `<g transform="rotate(-3 ${size / 2} ${bottom})">${texts.join('')}</g>`;
}

function confetti(size: number, ink: string): string {
	const colours = ['#ff3b6b', '#ffd23f', '#3bb7ff', '#b45cff', '#ff8a3b'];
	const spots: [number, number, number][] = [
		[0.08, 0.12, 20],
		[0.2, 0.05, -30],
		[0.82, 0.08, 40],
		[0.93, 0.22, -15],
		[0.06, 0.4, 60],
		[0.94, 0.45, 10]
	];
	return spots
		.map(
			([x, y, r], i) =>
				`<rect x="${x * size}" y="${y * size}" width="${size * 0.045}" height="${size * 0.02}" rx="2" fill="${colours[i % colours.length]}" stroke="${ink}" stroke-width="2" transform="rotate(${r} ${x * size} ${y * size})"/>`
		)
		.join('');
}

function starPoints(cx: number, cy: number, outer: number, inner: number, points: number): string {
	const out: string[] = [];
	for (let i = 0; i < points * 2; i++) {
		const r = i % 2 === 0 ? outer : inner;
		const a = (Math.PI * i) / points - Math.PI / 2;
		out.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
	}
	return out.join(' ');
}

function heartPath(cx: number, top: number, width: number): string {
	const w = width / 2;
	return `M ${cx} ${top + w * 0.6} C ${cx} ${top}, ${cx - w} ${top}, ${cx - w} ${top + w * 0.6} C ${cx - w} ${top + w * 1.2}, ${cx} ${top + w * 1.6}, ${cx} ${top + w * 2} C ${cx} ${top + w * 1.6}, ${cx + w} ${top + w * 1.2}, ${cx + w} ${top + w * 0.6} C ${cx + w} ${top}, ${cx} ${top}, ${cx} ${top + w * 0.6} Z`;
}
