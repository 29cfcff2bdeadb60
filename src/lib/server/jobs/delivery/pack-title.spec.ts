import { describe, expect, it } from 'vitest';
import { PACK_TITLE_MAX, packTitle } from './pack-title.ts';

describe('packTitle', () => {
	it('fills the event, the first name and the localised default title', () => {
		expect(packTitle('{event} · {first_name}', { event: 'Acme Summer Party', firstName: 'Dana', locale: 'en' })).toBe(
			'Acme Summer Party · Dana'
		);
		expect(packTitle('{pack_title}', { event: 'Default event', firstName: 'Dana', locale: 'ru' })).toBe(
			'Мои стикеры с праздника'
		);
		expect(packTitle('{first_name}: {pack_title}', { event: 'x', firstName: 'Aziz', locale: 'uz' })).toBe(
			'Aziz: Bayram stikerlarim'
		);
	});

	it('drops the separator a missing first name leaves behind', () => {
		expect(packTitle('{event} · {first_name}', { event: 'Wedding', firstName: null, locale: 'en' })).toBe('Wedding');
	});

	it('is never empty: an empty result is the default title', () => {
		expect(packTitle('{first_name}', { event: 'Wedding', firstName: '  ', locale: 'en' })).toBe('My party stickers');
		expect(packTitle(' · ', { event: 'Wedding', firstName: 'Dana', locale: 'uz' })).toBe('Bayram stikerlarim');
	});

	it('cuts to 64 characters without splitting an emoji or a letter', () => {
		const title = packTitle('{event} {first_name}', { event: 'A'.repeat(62), firstName: '👩‍👩‍👧🎉', locale: 'en' });
		expect(title.length).toBeLessThanOrEqual(PACK_TITLE_MAX);
		expect(title).toBe('A'.repeat(62));
		const accented = packTitle('{event}', { event: `${'b'.repeat(63)}e\u0301x`, firstName: null, locale: 'en' });
		expect(accented).toBe('b'.repeat(63));
		expect(packTitle('{event}', { event: 'я'.repeat(80), firstName: null, locale: 'ru' })).toBe('я'.repeat(64));
	});
});
