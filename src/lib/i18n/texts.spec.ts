import { describe, expect, it } from 'vitest';
import type { Locale } from './locale.ts';
import { fillTemplate, formatDuration, translator, type Texts } from './texts.ts';

const en = { hello: 'Hello, {name}!', seconds: '{n} s', minutes: '{n} min' } as const;
const ru = { hello: 'Привет, {name}!', seconds: '{n} с', minutes: '{n} мин' } satisfies Texts<typeof en>;
const uz = { hello: 'Salom, {name}!', seconds: '{n} soniya', minutes: '{n} daqiqa' } satisfies Texts<typeof en>;
const text = translator<typeof en>({ en, ru, uz });

describe('the texts convention', () => {
	it('fills placeholders and leaves one without a value visible', () => {
		expect(fillTemplate('{a} and {b}', { a: 1 })).toBe('1 and {b}');
		expect(fillTemplate('{a}', { a: '{b}', b: 'x' })).toBe('{b}');
	});

	it('translates by locale and reads English for a locale it does not know', () => {
		expect(text('ru', 'hello', { name: 'Аня' })).toBe('Привет, Аня!');
		expect(text('xx' as Locale, 'hello', { name: 'Ann' })).toBe('Hello, Ann!');
	});

	it('says durations in seconds (at least 5) below two minutes, in minutes from there', () => {
		const say = (seconds: number) => formatDuration((key, vars) => text('uz', key, vars), seconds);
		expect([say(1), say(119.4), say(120), say(200)]).toEqual(['5 soniya', '119 soniya', '2 daqiqa', '3 daqiqa']);
	});

	it('refuses, at type-check time, a translation with a missing or an extra key', () => {
		// @ts-expect-error `minutes` is missing
		const missing = { hello: 'Hallo', seconds: '{n} s' } satisfies Texts<typeof en>;
		// @ts-expect-error `bye` is not an English key
		const extra = { hello: 'Hallo', seconds: '{n} s', minutes: '{n} min', bye: 'Tschüss' } satisfies Texts<typeof en>;
		type Nested = { readonly list: readonly [{ readonly a: 'x' }, { readonly a: 'y' }] };
		// @ts-expect-error a list must have as many entries as the English one
		const short = { list: [{ a: 'x' }] } satisfies Texts<Nested>;
		expect([missing, extra, short].map((entry) => Object.keys(entry).length)).toEqual([2, 4, 1]);
	});
});
