import { describe, expect, it } from 'vitest';
import { builtInCaptions } from '../../media/sticker-variants.ts';
import { eventCaptions } from './job-event.ts';

describe("a job's captions from its event", () => {
	const acme = Array.from({ length: 12 }, (_, i) => `Acme ${i + 1}`);

	it("uses the event's captions in the guest's language", () => {
		expect(eventCaptions(JSON.stringify({ ru: acme, uz: acme, en: acme.map((c) => `${c}!`) }), 'en')).toEqual(
			acme.map((c) => `${c}!`)
		);
		expect(eventCaptions(JSON.stringify({ ru: acme, uz: acme, en: acme }), 'ru')).toEqual(acme);
	});

	it('uses the built-in captions when the event sets none, leaves the language out or stores something unreadable', () => {
		expect(eventCaptions(null, 'uz')).toEqual(builtInCaptions('uz'));
		expect(eventCaptions(JSON.stringify({ ru: acme }), 'en')).toEqual(builtInCaptions('en'));
		expect(eventCaptions(JSON.stringify({ en: acme.slice(0, 11) }), 'en')).toEqual(builtInCaptions('en'));
		expect(eventCaptions('{not json', 'ru')).toEqual(builtInCaptions('ru'));
		expect(builtInCaptions('en')[0]).toBe('Hi!');
	});
});
