import { describe, expect, it } from 'vitest';
import {
	accentProblem,
	contrastRatio,
	kioskTheme,
	normaliseHex,
	readableInk,
	relativeLuminance,
	TEXT_CONTRAST_MIN
} from './brand-colours.ts';
import { eventFieldsSchema } from './event.ts';

describe('contrast (WCAG 2.x)', () => {
	it('measures the reference pairs as WCAG does', () => {
		expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
		expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
		// Well-known values: #767676 on white is the lightest grey that passes AA (4.54:1); #777777 fails (4.48:1).
		expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
		expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
		expect(contrastRatio('#ffffff', '#767676')).toBe(contrastRatio('#767676', '#ffffff'));
		expect(relativeLuminance('#ff0000')).toBeCloseTo(0.2126, 4);
	});

	it('picks the ink that reads on a background: white on dark, black on light', () => {
		expect(readableInk('#1d1b4b')).toBe('#ffffff');
		expect(readableInk('#ffd23f')).toBe('#000000');
		expect(readableInk('#ffffff')).toBe('#000000');
		expect(readableInk('#0000ff')).toBe('#ffffff');
	});

	it('always reaches AA (4.5:1) with the ink it picks, for every colour on a 17-step grid', () => {
		let worst = 21;
		for (let r = 0; r <= 255; r += 15)
			for (let g = 0; g <= 255; g += 15)
				for (let b = 0; b <= 255; b += 15) {
					const hex = `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
					worst = Math.min(worst, contrastRatio(hex, readableInk(hex)));
				}
		expect(worst).toBeGreaterThanOrEqual(TEXT_CONTRAST_MIN);
	});

	it('the hardest mid-tone still reaches AA with its ink (luminance ≈ 0.18: both inks near 4.6:1)', () => {
		// #808080 is about the colour where black and white contrast alike.
		expect(contrastRatio('#808080', readableInk('#808080'))).toBeGreaterThanOrEqual(TEXT_CONTRAST_MIN);
		expect(contrastRatio('#7f7f7f', readableInk('#7f7f7f'))).toBeGreaterThanOrEqual(TEXT_CONTRAST_MIN);
	});
});

describe('the event form’s colours', () => {
	const base = { name: 'Gala', startsOn: null, endsOn: null, titleTemplate: '{pack_title}', captions: null };

	it('normalises what operators type: #ABC, upper case, no hash, spaces', () => {
		expect(['#ABC', 'abc123', ' #AbC123 ', '#12345', 'red', '#ggg000'].map(normaliseHex)).toEqual([
			'#aabbcc',
			'#abc123',
			'#abc123',
			null,
			null,
			null
		]);
		const parsed = eventFieldsSchema.parse({ ...base, brandPrimary: '#E30613', brandAccent: 'FFF' });
		expect([parsed.brandPrimary, parsed.brandAccent]).toEqual(['#e30613', '#ffffff']);
	});

	it('leaves the colours out or empty: none (the kiosk’s own)', () => {
		expect(eventFieldsSchema.parse(base)).toMatchObject({ brandPrimary: null, brandAccent: null });
		expect(eventFieldsSchema.parse({ ...base, brandPrimary: '', brandAccent: '  ' })).toMatchObject({
			brandPrimary: null,
			brandAccent: null
		});
	});

	it('refuses a colour it cannot read with a sentence naming it', () => {
		const result = eventFieldsSchema.safeParse({ ...base, brandPrimary: 'dark blue' });
		expect(result.success).toBe(false);
		expect(result.error?.issues[0]?.message).toBe(
			'The primary colour is written as #rrggbb, for example #1d1b4b (it was "dark blue").'
		);
	});

	it('refuses an accent the Start button would vanish into (below 3:1 on the primary), with a sentence', () => {
		const result = eventFieldsSchema.safeParse({ ...base, brandPrimary: '#1d1b4b', brandAccent: '#2a2860' });
		expect(result.success).toBe(false);
		expect(result.error?.issues[0]?.path).toEqual(['brandAccent']);
		expect(result.error?.issues[0]?.message).toMatch(
			/^The accent colour #2a2860 is too close to the primary colour #1d1b4b \(contrast 1\.\d:1, at least 3:1 is needed\)/
		);
		// Against the kiosk's own primary when only an accent is given.
		expect(accentProblem(null, '#1d1b4b')).toMatch(/too close/);
		expect(accentProblem('#ffffff', '#e30613')).toBeNull();
		expect(accentProblem(null, null)).toBeNull();
	});

	it('gives the kiosk a theme with readable ink on both colours', () => {
		expect(kioskTheme('#ffffff', '#e30613')).toEqual({
			primary: '#ffffff',
			primaryInk: '#000000',
			accent: '#e30613',
			accentInk: '#ffffff'
		});
		expect(kioskTheme(null, null)).toEqual({
			primary: '#1d1b4b',
			primaryInk: '#ffffff',
			accent: '#ffd23f',
			accentInk: '#000000'
		});
	});
});
