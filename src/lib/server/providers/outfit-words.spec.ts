import { describe, expect, it } from 'vitest';
import { defaultOutfitSnapshot } from '../outfits/default-outfit.ts';
import { colourName, outfitPhrase } from './outfit-words.ts';

describe('outfit words for image models', () => {
	it('names colours plainly, without a hex code that would compete with the background colour', () => {
		expect(colourName('#5A189A')).toBe('deep purple');
		expect(colourName('#f4f6fb')).toBe('white');
		expect(colourName('#ff7a1a')).toBe('orange');
		expect(colourName('#d7263d')).toBe('red');
		expect(colourName('#1d3557')).toBe('deep blue');
		expect(colourName('#1b1b1e')).toBe('black');
		expect(colourName('#c0c0c0')).toBe('light grey');
		expect(colourName('#2a9d3f')).toBe('green');
	});

	it('carries the outfit prompt text and both costume colours', () => {
		const wizard = defaultOutfitSnapshot('wizard');
		expect(outfitPhrase(wizard)).toBe(
			'wearing a deep purple wizard robe with silver stars and a tall pointed hat, the costume mainly deep purple with light grey trim'
		);
	});
});
