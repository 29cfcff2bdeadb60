import { describe, expect, it } from 'vitest';
import {
	SERVICE_STATUS_WORDS,
	backupFailureWords,
	backupWords,
	dayAndTime,
	providerErrorWords,
	safetyCopiesWords,
	safetyCopyTakenAt
} from './health-words.ts';

const now = new Date('2026-12-03T14:30:00.000Z');

describe('the Health page in words', () => {
	it('says when a moment was as today, yesterday or the date', () => {
		expect(dayAndTime('2026-12-03T03:00:00.000Z', now, 'UTC')).toBe('Today 03:00');
		expect(dayAndTime('2026-12-02T23:10:00.000Z', now, 'UTC')).toBe('Yesterday 23:10');
		expect(dayAndTime('2026-11-28T03:00:00.000Z', now, 'UTC')).toBe('28 Nov 03:00');
		// Tashkent is UTC+5: 20:00 UTC on the 2nd is already the 3rd there.
		expect(dayAndTime('2026-12-02T20:00:00.000Z', now, 'Asia/Tashkent')).toBe('Today 01:00');
	});

	it('shows the last backup without its file name or path', () => {
		const words = backupWords({ at: '2026-12-03T03:00:00.000Z', bytes: 12 * 1024 ** 2 }, now, 'UTC');
		expect(words).toBe('Today 03:00 · 12.0 MB · kept on the server’s disk');
		expect(backupWords(null, now)).toBe('none yet: the worker takes one a day');
	});

	it('says a failed backup newer than the good one in words, with when the previous one was', () => {
		const good = { at: '2026-12-02T03:00:00.000Z' };
		expect(backupFailureWords({ at: '2026-12-03T03:00:00.000Z', cause: 'disk-full' }, good, now, 'UTC')).toBe(
			'The backup at 03:00 failed: the disk was full — the previous one is from yesterday 03:00'
		);
		expect(backupFailureWords({ at: '2026-12-02T04:00:00.000Z', cause: 'unknown' }, null, now, 'UTC')).toBe(
			'The backup of yesterday 04:00 failed; the worker’s log has the details — there is no good backup yet'
		);
		expect(
			backupFailureWords(
				{ at: '2026-12-03T03:00:00.000Z', cause: 'tool-missing' },
				{ at: '2026-11-28T03:00:00.000Z' },
				now,
				'UTC'
			)
		).toBe(
			'The backup at 03:00 failed: pg_dump of the database server’s version is not installed — the previous one is from 28 Nov 03:00'
		);
	});

	it('reads the safety copies’ time from their names and never shows the names', () => {
		expect(safetyCopyTakenAt('app.db.bak-20261203-140200-reset')).toBe('2026-12-03T14:02:00.000Z');
		expect(safetyCopyTakenAt('something else')).toBeNull();
		const words = safetyCopiesWords({ count: 2, newest: 'app.db.bak-20261203-140200-reset' }, now, 'UTC');
		expect(words).toBe(
			'2 copies beside the database, the newest Today 14:02 (made before each database upgrade and guest reset)'
		);
		expect(words).not.toContain('bak');
		expect(safetyCopiesWords({ count: 0, newest: null }, now)).toMatch(/^none/);
	});

	it('says the service state and provider failures without codes', () => {
		expect(SERVICE_STATUS_WORDS.ok).toBe('working');
		expect(providerErrorWords('HTTP 503 e2e')).toBe('the provider had a fault on its side (e2e)');
		expect(providerErrorWords('429 RESOURCE_EXHAUSTED: quota')).toBe(
			'the provider said we sent too many requests (RESOURCE_EXHAUSTED: quota)'
		);
		expect(providerErrorWords('HTTP 401')).toBe('the provider refused our key');
		expect(providerErrorWords('socket hang up')).toBe('socket hang up');
		expect(providerErrorWords(null)).toBe('');
	});
});
