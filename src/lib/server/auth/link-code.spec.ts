import { describe, expect, it } from 'vitest';
import { generateLinkCode, hashLinkCode, normaliseLinkCode } from './link-code.ts';

describe('operator link codes', () => {
	it('are 8 characters of Crockford base32 shown as two groups of four', () => {
		const codes = Array.from({ length: 200 }, () => generateLinkCode());
		for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
		expect(new Set(codes).size).toBe(200);
		expect(generateLinkCode(() => Uint8Array.from([31, 30, 29, 28, 0, 1, 2, 255]))).toBe('ZYXW-012Z');
	});

	it('read a code typed by hand: case, spaces, hyphens and look-alike letters do not matter', () => {
		expect(normaliseLinkCode(' abcd-efgh ')).toBe('ABCDEFGH');
		expect(normaliseLinkCode('OIL0 1234')).toBe('01101234');
		expect(hashLinkCode(normaliseLinkCode('abcd efgh')!)).toBe(hashLinkCode('ABCDEFGH'));
	});

	it('refuse what cannot be a code, so it never reaches the lookup', () => {
		for (const typed of ['', 'ABCDEFG', 'ABCDEFGHJ', 'ABCD-EFGU', 'ABCD_EFGH', '12345678ü'])
			expect(normaliseLinkCode(typed)).toBeNull();
	});
});
