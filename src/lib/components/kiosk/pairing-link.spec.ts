import { describe, expect, it } from 'vitest';
import { readPairingKey } from './pairing-link.ts';

describe('the pairing link’s key', () => {
	it('comes from #pair=, decoded; anything else is no key', () => {
		expect(readPairingKey('#pair=kk_abc-DEF_123')).toBe('kk_abc-DEF_123');
		expect(readPairingKey('#pair=kk_a%2Bb')).toBe('kk_a+b');
		expect(readPairingKey('#other=1&pair=kk_x')).toBe('kk_x');
		expect(readPairingKey('')).toBeNull();
		expect(readPairingKey('#pair=')).toBeNull();
		expect(readPairingKey('#pairing=kk_x')).toBeNull();
	});
});
