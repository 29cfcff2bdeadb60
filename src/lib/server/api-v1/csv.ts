/**
 * CSV for spreadsheets (RFC 4180: every cell quoted, quotes doubled, CRLF rows). A cell that a
 * spreadsheet would read as a formula (starting with = + - @, a tab or a carriage return) gets a
 * leading apostrophe, so a lead who typed `=HYPERLINK(…)` stays text when the export is opened.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | null): string {
	if (value === null) return '""';
	const text = typeof value === 'number' ? String(value) : FORMULA_START.test(value) ? `'${value}` : value;
	return `"${text.replaceAll('"', '""')}"`;
}

export function toCsv(header: readonly string[], rows: readonly (readonly (string | number | null)[])[]): string {
	return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
