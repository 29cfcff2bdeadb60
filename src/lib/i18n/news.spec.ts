import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LOCALES } from './locale.ts';
import {
	NEWS_COMMAND_KEYS,
	NEWS_COMMAND_WORDING_VERSION,
	NEWS_QUESTION_KEYS,
	NEWS_QUESTION_WORDING_VERSION,
	newsText
} from './news.ts';

/**
 * A recorded news opt-in names the words the guest saw by a version. These fingerprints pin each
 * version to its words in every language: changing the words fails here until the version is
 * raised (and the new fingerprint written down), so an old record never points at new words.
 */
function fingerprint(keys: readonly Parameters<typeof newsText>[1][]): string {
	const words = LOCALES.flatMap((locale) => keys.map((key) => [locale, key, newsText(locale, key)]));
	return createHash('sha256').update(JSON.stringify(words)).digest('hex').slice(0, 16);
}

describe('the wording versions of the news opt-in', () => {
	it('the question and its buttons are the words of their version', () => {
		expect({ version: NEWS_QUESTION_WORDING_VERSION, words: fingerprint(NEWS_QUESTION_KEYS) }).toEqual({
			version: 'news-question-1',
			words: 'fc6ee4b5aabc4a29'
		});
	});

	it('the /news confirmation is the words of its version', () => {
		expect({ version: NEWS_COMMAND_WORDING_VERSION, words: fingerprint(NEWS_COMMAND_KEYS) }).toEqual({
			version: 'news-command-1',
			words: '508f06c2115068ee'
		});
	});
});
