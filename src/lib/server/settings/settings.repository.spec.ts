import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { parseJsonSetting } from './settings.repository.ts';

const shape = z.object({ at: z.string(), n: z.number() });

describe('parseJsonSetting', () => {
	it('gives the value when the text is JSON of the shape', () => {
		expect(parseJsonSetting('{"at":"2026-12-01","n":2}', shape)).toEqual({ at: '2026-12-01', n: 2 });
	});

	it('gives null for text that is not JSON, and for JSON of another shape', () => {
		expect(parseJsonSetting('{not json', shape)).toBeNull();
		expect(parseJsonSetting('{"at":"2026-12-01"}', shape)).toBeNull();
		expect(parseJsonSetting('"2026-12-01"', shape)).toBeNull();
	});
});
