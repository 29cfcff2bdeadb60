/**
 * A small seeded random source (mulberry32) so every drawing of the fake is reproducible: the same
 * request, in the same order, draws the same sheet, and a test corpus is the same on every run.
 */
export type Random = () => number;

export function seededRandom(seed: number): Random {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** FNV-1a of a text, for seeding from a prompt. */
export function hashText(text: string): number {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193);
	}
	return hash >>> 0;
}

/** A number in [low, high). */
export function between(random: Random, low: number, high: number): number {
	return low + (high - low) * random();
}
