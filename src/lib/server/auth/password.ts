import { hash, verify, type Options } from '@node-rs/argon2';

/**
 * argon2id with OWASP's minimum (19 MiB, 2 passes, 1 lane). The parameters travel inside each
 * PHC string, so raising them later still verifies old hashes.
 */
const ARGON2_OPTIONS: Options = { algorithm: 2 as Options['algorithm'], memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

export function hashPassword(password: string): Promise<string> {
	return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
	try {
		return await verify(passwordHash, password);
	} catch {
		return false; // a malformed stored hash never signs anyone in
	}
}

let dummyHash: Promise<string> | undefined;

/**
 * An unknown account is checked against this hash so it costs the same time as a known one and an
 * attacker cannot tell which usernames exist.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
	dummyHash ??= hashPassword('dummy-password-nobody-has');
	await verifyPassword(await dummyHash, password);
	return false;
}

/** A sentence for the person choosing a password, or null when it is acceptable. */
export function describePasswordProblem(password: string): string | null {
	if (password.length < PASSWORD_MIN_LENGTH) return `The password needs at least ${PASSWORD_MIN_LENGTH} characters.`;
	if (password.length > PASSWORD_MAX_LENGTH) return `The password may have at most ${PASSWORD_MAX_LENGTH} characters.`;
	return null;
}
