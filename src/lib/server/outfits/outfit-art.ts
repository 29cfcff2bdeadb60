import type { OutfitFigure, OutfitPalette } from '../../schemas/outfit.ts';

/**
 * The outfits' art as SVG (rendered to PNG by media/photo-outfit-art.ts): the same friendly figure
 * in each costume, on the outfit's own colours. A costume is split into what lies behind and below
 * the head (back, body) and what sits on it (headwear), so the offline provider can put the
 * guest's own head between them. Pure strings, so the art is deterministic and reviewable.
 */
const SKIN = '#f3c7a1';
const HAIR = '#4a2f22';

/** The eight default outfits' own colours (the default catalogue's palettes). */
export const FIGURE_PALETTES: Record<OutfitFigure, OutfitPalette> = {
	astronaut: { background: ['#1d2b64', '#0b1026'], body: '#f4f6fb', trim: '#ff7a1a' },
	superhero: { background: ['#ffd23f', '#ff8c42'], body: '#d7263d', trim: '#ffd23f' },
	chef: { background: ['#ffe8d6', '#f4a261'], body: '#ffffff', trim: '#e63946' },
	pirate: { background: ['#8ecae6', '#219ebc'], body: '#1d3557', trim: '#f1c40f' },
	wizard: { background: ['#c77dff', '#3c096c'], body: '#5a189a', trim: '#e0e1dd' },
	knight: { background: ['#a8dadc', '#457b9d'], body: '#b8c0cc', trim: '#1d4e89' },
	rockstar: { background: ['#ff4d6d', '#590d22'], body: '#1b1b1e', trim: '#c0c0c0' },
	chapan: { background: ['#ffe066', '#06a77d'], body: '#7b2cbf', trim: '#f77f00' }
};

const star = (cx: number, cy: number, r: number, fill: string) => {
	const points = Array.from({ length: 10 }, (_, i) => {
		const angle = (Math.PI / 5) * i - Math.PI / 2;
		const radius = i % 2 === 0 ? r : r * 0.45;
		return `${(cx + radius * Math.cos(angle)).toFixed(1)},${(cy + radius * Math.sin(angle)).toFixed(1)}`;
	});
	return `<polygon points="${points.join(' ')}" fill="${fill}"/>`;
};

const SHOULDERS = 'M86 512 C 100 400 170 352 256 352 C 342 352 412 400 426 512 Z';

function face(extra = ''): string {
	return `<rect x="226" y="318" width="60" height="52" fill="${SKIN}"/>
<ellipse cx="164" cy="262" rx="16" ry="22" fill="${SKIN}"/><ellipse cx="348" cy="262" rx="16" ry="22" fill="${SKIN}"/>
<circle cx="256" cy="250" r="92" fill="${SKIN}"/>
<ellipse cx="222" cy="252" rx="11" ry="14" fill="#2b2d42"/><ellipse cx="290" cy="252" rx="11" ry="14" fill="#2b2d42"/>
<circle cx="226" cy="247" r="4" fill="#fff"/><circle cx="294" cy="247" r="4" fill="#fff"/>
<ellipse cx="200" cy="284" rx="14" ry="8" fill="#f28482" opacity=".55"/><ellipse cx="312" cy="284" rx="14" ry="8" fill="#f28482" opacity=".55"/>
<path d="M226 292 Q256 318 286 292" stroke="#7a2e2e" stroke-width="7" fill="none" stroke-linecap="round"/>${extra}`;
}

const hair = `<path d="M166 236 C 160 150 230 128 262 132 C 320 134 360 170 346 240 C 330 200 300 182 256 186 C 212 186 182 204 166 236 Z" fill="${HAIR}"/>`;

/**
 * One costume: `back` and `body` lie behind and below the head, `faceExtra` is drawn on the
 * preview's face (a mask, an eye patch, sunglasses), `hair` is the preview's hair and `headwear`
 * sits on top of the head (a helmet, a hat).
 */
interface Costume {
	back?: string;
	body: string;
	faceExtra?: string;
	hair: string;
	headwear: string;
}

const COSTUMES: Record<OutfitFigure, (p: OutfitPalette) => Costume> = {
	astronaut: (p) => ({
		body: `<path d="${SHOULDERS}" fill="${p.body}"/><rect x="196" y="346" width="120" height="26" rx="13" fill="#9aa5b1"/>
<circle cx="330" cy="440" r="28" fill="${p.trim}"/>${star(330, 440, 16, '#fff')}<rect x="160" y="420" width="70" height="40" rx="8" fill="#4361ee"/>`,
		hair,
		headwear: `<circle cx="256" cy="246" r="128" fill="#bde0fe" fill-opacity=".22" stroke="#e9ecef" stroke-width="14"/>
<line x1="256" y1="118" x2="256" y2="78" stroke="#e9ecef" stroke-width="8"/><circle cx="256" cy="72" r="12" fill="${p.trim}"/>`
	}),
	superhero: (p) => ({
		back: `<path d="M120 512 L170 360 L342 360 L392 512 Z" fill="#8d0801"/>`,
		body: `<path d="${SHOULDERS}" fill="${p.body}"/><circle cx="256" cy="440" r="46" fill="${p.trim}"/>${star(256, 440, 34, p.body)}`,
		faceExtra: `<path d="M176 236 Q256 206 336 236 L336 268 Q256 246 176 268 Z" fill="#8d0801"/><ellipse cx="222" cy="252" rx="13" ry="10" fill="#fff"/><ellipse cx="290" cy="252" rx="13" ry="10" fill="#fff"/><circle cx="222" cy="252" r="6" fill="#2b2d42"/><circle cx="290" cy="252" r="6" fill="#2b2d42"/>`,
		hair,
		headwear: ''
	}),
	chef: (p) => ({
		body: `<path d="${SHOULDERS}" fill="${p.body}" stroke="#dee2e6" stroke-width="4"/><path d="M214 352 L256 410 L298 352 Z" fill="${p.trim}"/>
${[420, 460, 500].map((y) => `<circle cx="226" cy="${y}" r="7" fill="#adb5bd"/><circle cx="286" cy="${y}" r="7" fill="#adb5bd"/>`).join('')}`,
		hair,
		headwear: `<rect x="180" y="118" width="152" height="58" rx="10" fill="#fff" stroke="#dee2e6" stroke-width="4"/>
<circle cx="204" cy="96" r="40" fill="#fff"/><circle cx="256" cy="78" r="48" fill="#fff"/><circle cx="308" cy="96" r="40" fill="#fff"/>`
	}),
	pirate: (p) => ({
		body: `<path d="${SHOULDERS}" fill="${p.body}"/><path d="M206 352 L256 470 L306 352 Z" fill="#fff"/>
${[372, 396, 420, 444].map((y) => `<line x1="${216 + (y - 372) / 3}" y1="${y}" x2="${296 - (y - 372) / 3}" y2="${y}" stroke="#e63946" stroke-width="8"/>`).join('')}
${[410, 450, 490].map((y) => `<circle cx="196" cy="${y}" r="8" fill="${p.trim}"/><circle cx="316" cy="${y}" r="8" fill="${p.trim}"/>`).join('')}`,
		faceExtra: `<ellipse cx="290" cy="252" rx="20" ry="18" fill="#111"/><line x1="170" y1="214" x2="346" y2="270" stroke="#111" stroke-width="5"/>`,
		hair,
		headwear: `
<path d="M140 190 Q256 90 372 190 Q256 150 140 190 Z" fill="#111"/><path d="M176 176 Q256 70 336 176 Z" fill="#111"/>
<circle cx="256" cy="146" r="14" fill="#fff"/><rect x="246" y="158" width="20" height="8" fill="#fff"/>`
	}),
	wizard: (p) => ({
		body: `<path d="${SHOULDERS}" fill="${p.body}"/>${star(190, 450, 14, p.trim)}${star(320, 420, 18, p.trim)}${star(260, 490, 12, p.trim)}
<path d="M226 352 L256 512 L286 352 Z" fill="#3c096c"/>`,
		hair,
		headwear: `<ellipse cx="256" cy="176" rx="130" ry="26" fill="#3c096c"/><path d="M168 176 L268 20 L344 176 Z" fill="${p.body}"/>
${star(246, 120, 16, p.trim)}${star(290, 150, 10, p.trim)}`
	}),
	knight: (p) => ({
		body: `<path d="${SHOULDERS}" fill="${p.body}" stroke="#6c757d" stroke-width="5"/><path d="M186 380 L326 380 L316 512 L196 512 Z" fill="${p.trim}"/>
<rect x="246" y="396" width="20" height="96" fill="#ffd60a"/><rect x="214" y="428" width="84" height="20" fill="#ffd60a"/>`,
		hair: '',
		headwear: `<path d="M160 250 C 160 130 352 130 352 250 L336 250 C 330 170 182 170 176 250 Z" fill="${p.body}" stroke="#6c757d" stroke-width="5"/>
<rect x="176" y="172" width="160" height="22" rx="6" fill="#8d99ae"/><path d="M256 130 C 240 60 300 40 320 80 C 290 80 276 100 268 132 Z" fill="#e63946"/>`
	}),
	rockstar: (p) => ({
		body: `<path d="${SHOULDERS}" fill="${p.body}"/><path d="M210 352 L256 512 L302 352 Z" fill="#fff"/><path d="M262 392 L244 432 L262 432 L248 470 L278 420 L260 420 L272 392 Z" fill="#e63946"/>
<path d="M210 352 L180 420 L236 470 Z" fill="#343a40"/><path d="M302 352 L332 420 L276 470 Z" fill="#343a40"/>
${[150, 180, 340, 370].map((x) => `<circle cx="${x}" cy="${x < 256 ? 470 : 470}" r="6" fill="${p.trim}"/>`).join('')}`,
		faceExtra: `${star(222, 252, 30, '#ff006e')}${star(290, 252, 30, '#ff006e')}<line x1="246" y1="250" x2="268" y2="250" stroke="#ff006e" stroke-width="6"/>`,
		hair: `
<path d="M166 236 L150 150 L196 182 L206 110 L240 170 L262 96 L284 168 L320 112 L322 184 L366 150 L346 236 C 320 200 196 200 166 236 Z" fill="#111"/>`,
		headwear: ''
	}),
	chapan: (p) => ({
		body: `<path d="${SHOULDERS}" fill="${p.body}"/>
${['#f77f00', '#06a77d', '#ffe066', '#d62828', '#4361ee', '#f77f00', '#06a77d'].map((c, i) => `<rect x="${118 + i * 40}" y="${400 - (i % 2) * 20}" width="20" height="120" fill="${c}" opacity=".85"/>`).join('')}
<path d="M226 352 L256 420 L286 352 Z" fill="#fff"/><path d="M206 352 L246 512" stroke="${p.trim}" stroke-width="12"/><path d="M306 352 L266 512" stroke="${p.trim}" stroke-width="12"/>`,
		hair,
		headwear: `<path d="M170 196 C 176 120 336 120 342 196 Z" fill="#111"/>
${[196, 236, 276, 316].map((x) => `<path d="M${x} 184 q12 -26 0 -44 q-12 18 0 44 Z" fill="#fff"/>`).join('')}`
	})
};

function confetti(seed: number): string {
	const dots: string[] = [];
	let state = seed;
	const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
	for (let i = 0; i < 14; i++) {
		const x = 30 + next() * 452;
		const y = 24 + next() * 220;
		if (x > 130 && x < 382 && y > 60) continue; // keep the face clear
		dots.push(
			`<circle cx="${x.toFixed(0)}" cy="${y.toFixed(0)}" r="${(4 + next() * 6).toFixed(0)}" fill="#fff" opacity="${(0.25 + next() * 0.4).toFixed(2)}"/>`
		);
	}
	return dots.join('');
}

/** The art is drawn on a 512×512 square; the preview's face is centred here, this wide. */
export const ART_SIZE = 512;
export const ART_FACE = { cx: 256, cy: 250, width: 150 };

/** The figure in a costume on the palette's colours; `seedKey` places the confetti. */
export function outfitArtSvg(figure: OutfitFigure, palette: OutfitPalette, seedKey: string): string {
	const parts = COSTUMES[figure](palette);
	const seed = [...seedKey].reduce((sum, ch) => sum * 31 + ch.charCodeAt(0), 7) % 100000;
	return `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">
<defs><radialGradient id="bg" cx="50%" cy="35%" r="75%"><stop offset="0" stop-color="${palette.background[0]}"/><stop offset="1" stop-color="${palette.background[1]}"/></radialGradient></defs>
<rect width="512" height="512" rx="48" fill="url(#bg)"/>${confetti(seed)}${parts.back ?? ''}${parts.body}${face(parts.faceExtra)}${parts.hair}${parts.headwear}
</svg>`;
}

/**
 * The costume without a face, for putting a real head into it (in art coordinates, no
 * background): `behind` goes under the head, `headwear` over it. Nothing is drawn over the face
 * itself, so the guest stays recognisable and the quality gate still finds one face.
 */
export function costumeSvgParts(figure: OutfitFigure, palette: OutfitPalette): { behind: string; headwear: string } {
	const parts = COSTUMES[figure](palette);
	return { behind: `${parts.back ?? ''}${parts.body}`, headwear: parts.headwear };
}
