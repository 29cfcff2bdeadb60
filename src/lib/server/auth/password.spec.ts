import { describe, expect, it } from 'vitest';
import {
	ARGON2_OPTIONS,
	DUMMY_PASSWORD_HASH,
	hashPassword,
	PASSWORD_SLOTS,
	tryTakePasswordSlot,
	type PasswordSlot
} from './password.ts';

describe('password slots', () => {
	it('gives out PASSWORD_SLOTS slots at once, then none until one is released', () => {
		const taken = Array.from({ length: PASSWORD_SLOTS }, () => tryTakePasswordSlot());
		expect(taken.every((slot) => slot !== null)).toBe(true);
		expect(tryTakePasswordSlot()).toBeNull();
		taken[0]!.release();
		taken[0]!.release(); // twice is once
		const again = tryTakePasswordSlot();
		expect(again).not.toBeNull();
		expect(tryTakePasswordSlot()).toBeNull();
		for (const slot of [again, ...taken.slice(1)]) slot!.release();
	});

	it('makes hashing wait for a slot instead of adding argon2 work beyond the cap', async () => {
		const taken = Array.from({ length: PASSWORD_SLOTS }, () => tryTakePasswordSlot()!);
		let hashed = false;
		const hashing = hashPassword('a new password 123').then((hash) => ((hashed = true), hash));
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(hashed).toBe(false);
		taken[0]!.release();
		expect(await hashing).toMatch(/^\$argon2id\$/);
		// The hash gave its slot back: one is free again, the other still held.
		const freed = tryTakePasswordSlot();
		expect(freed).not.toBeNull();
		expect(tryTakePasswordSlot()).toBeNull();
		freed!.release();
		taken[1]!.release();
	});

	it('checks unknown accounts against a dummy hash with the same cost parameters, never signing anyone in', async () => {
		expect(DUMMY_PASSWORD_HASH).toContain(
			`$m=${ARGON2_OPTIONS.memoryCost},t=${ARGON2_OPTIONS.timeCost},p=${ARGON2_OPTIONS.parallelism}$`
		);
		const slot: PasswordSlot = tryTakePasswordSlot()!;
		try {
			expect(await slot.verify(null, 'dummy-password-nobody-has')).toBe(false);
			const real = await hashPassword('correct horse battery');
			expect(await slot.verify(real, 'correct horse battery')).toBe(true);
			expect(await slot.verify(real, 'wrong')).toBe(false);
			expect(await slot.verify('not a hash', 'anything')).toBe(false);
		} finally {
			slot.release();
		}
	});
});
