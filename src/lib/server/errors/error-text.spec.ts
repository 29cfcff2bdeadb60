import { describe, expect, it } from 'vitest';
import { errorText } from './error-text.ts';

class ProviderLikeError extends Error {
	override name = 'ProviderError';
}

describe('errorText', () => {
	it('is the message of an Error and String() of anything else, on one line', () => {
		expect(errorText(new Error('send failed'))).toBe('send failed');
		expect(errorText('plain text')).toBe('plain text');
		expect(errorText(42)).toBe('42');
		expect(errorText(null)).toBe('null');
		expect(errorText(undefined)).toBe('undefined');
		expect(errorText(new Error('  {\n  "error": "quota"\n}\n'))).toBe('{ "error": "quota" }');
	});

	it('is cut to 300 characters unless told another length', () => {
		const long = new Error('x'.repeat(2000));
		expect(errorText(long)).toHaveLength(300);
		expect(errorText(long, 1000)).toHaveLength(1000);
		expect(errorText(long, 20)).toBe('x'.repeat(20));
	});

	it('names a subclass when asked (the job’s error column), never a plain Error', () => {
		expect(errorText(new ProviderLikeError('refused'), 1000, { named: true })).toBe('ProviderError: refused');
		expect(errorText(new TypeError('x is undefined'), 1000, { named: true })).toBe('TypeError: x is undefined');
		expect(errorText(new Error('plain'), 1000, { named: true })).toBe('plain');
		expect(errorText(new ProviderLikeError('refused'))).toBe('refused');
	});

	it('prefers a string code when asked (the log sink), else the message', () => {
		const busy = Object.assign(new Error('database is locked\n    at …'), { code: 'SQLITE_BUSY' });
		expect(errorText(busy, 300, { preferCode: true })).toBe('SQLITE_BUSY');
		expect(errorText(busy)).toBe('database is locked at …');
		expect(errorText(Object.assign(new Error('odd'), { code: 5 }), 300, { preferCode: true })).toBe('odd');
		expect(errorText({ code: 'P1001' }, 300, { preferCode: true })).toBe('P1001');
		expect(errorText(null, 300, { preferCode: true })).toBe('null');
	});
});
