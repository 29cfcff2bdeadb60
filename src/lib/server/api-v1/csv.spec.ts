import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv.ts';

describe('CSV for spreadsheets', () => {
	it('turns every cell a spreadsheet would run as a formula into text', () => {
		for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(csvCell(`${start}SUM(A1)`)).toBe(`"'${start}SUM(A1)"`);
		expect(csvCell('Aziz =1')).toBe('"Aziz =1"');
		expect(csvCell(-3)).toBe('"-3"');
	});

	it('quotes every cell, doubles quotes, keeps line breaks inside a cell, ends rows with CRLF', () => {
		expect(
			toCsv(
				['a', 'b'],
				[
					['say "hi"', null],
					['two\nlines', 7]
				]
			)
		).toBe('"a","b"\r\n"say ""hi""",""\r\n"two\nlines","7"\r\n');
	});
});
