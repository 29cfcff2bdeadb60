import { describe, expect, it } from 'vitest';
import { defaultOutfitSnapshot } from '../outfits/default-outfit.ts';
import { colourName, outfitPhrase } from './outfit-words.ts';

describe('outfit words for image models', () => {
	it('names colours plainly, with the hex after the name', () => {
		expect(colourName('#5A189A')).toBe('deep purple (#5a189a)');
		expect(colourName('#f4f6fb')).toBe('white (#f4f6fb)');
		expect(colourName('#ff7a1a')).toBe('orange (#ff7a1a)');
		expect(colourName('#d7263d')).toBe('red (#d7263d)');
		expect(colourName('#1d3557')).toBe('deep blue (#1d3557)');
		expect(colourName('#1b1b1e')).toBe('black (#1b1b1e)');
		expect(colourName('#c0c0c0')).toBe('light grey (#c0c0c0)');
		expect(colourName('#2a9d3f')).toBe('green (#2a9d3f)');
	});

	it('carries the outfit prompt text and both costume colours', () => {
		const wizard = defaultOutfitSnapshot('wizard');
		expect(outfitPhrase(wizard)).toBe('wearing a deep purple wizard robe with silver stars and a tall pointed hat, the costume mainly deep purple (#5a189a) with light grey (#e0e1dd) trim');
	});
});
