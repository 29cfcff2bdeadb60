import { hash, verify, type Options } from '@node-rs/argon2';

/**
 * argon2id with OWASP's minimum (19 MiB, 2 passes, 1 lane). The parameters travel inside each
 * PHC string, so raising them later still verifies old hashes.
 */
export const ARGON2_OPTIONS: Options = {
	algorithm: 2 as Options['algorithm'],
	memoryCost: 19_456,
	timeCost: 2,
	parallelism: 1
};

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

/**
 * Every argon2 computation of the process holds one of these slots: each takes 19 MiB and a core for
 * tens of milliseconds, and the web process shares two cores with the worker. A sign-in that finds
 * no free slot is answered "busy" at once (tryTakePasswordSlot); hashing a new password waits its turn.
 */
export const PASSWORD_SLOTS = 2;

/**
 * An unknown account is checked against this hash (of a password nobody has, made with
 * ARGON2_OPTIONS) so it costs the same time as a known one — from the first attempt on — and an
 * attacker cannot tell which usernames exist.
 */
export const DUMMY_PASSWORD_HASH =
	'$argon2id$v=19$m=19456,t=2,p=1$G85r+GA8g6NOkCVGvG8T5A$BM+VKUT2XQhzYHabwhiiOR5QG6WwUP0SAMGCMQK6d48';

let freeSlots = PASSWORD_SLOTS;
const waiting: (() => void)[] = [];

function releaseSlot(): void {
	const next = waiting.shift();
	if (next) next();
	else freeSlots++;
}

export interface PasswordSlot {
	/** Checks `password` against the stored hash, or against the dummy hash when there is none. */
	verify(passwordHash: string | null, password: string): Promise<boolean>;
	release(): void;
}

/** A slot for one password check, or null when all are busy (the caller answers 429 at once). */
export function tryTakePasswordSlot(): PasswordSlot | null {
	if (freeSlots <= 0) return null;
	freeSlots--;
	let released = false;
	return {
		verify: async (passwordHash, password) => {
			const valid = await verifyHash(passwordHash ?? DUMMY_PASSWORD_HASH, password);
			return passwordHash !== null && valid;
		},
		release: () => {
			if (released) return;
			released = true;
			releaseSlot();
		}
	};
}

/** Hashes a new password (adding an operator, creating the owner), waiting for a free slot. */
export async function hashPassword(password: string): Promise<string> {
	if (freeSlots > 0) freeSlots--;
	else await new Promise<void>((resolve) => waiting.push(resolve));
	try {
		return await hash(password, ARGON2_OPTIONS);
	} finally {
		releaseSlot();
	}
}

async function verifyHash(passwordHash: string, password: string): Promise<boolean> {
	try {
		return await verify(passwordHash, password);
	} catch {
		return false; // a malformed stored hash never signs anyone in
	}
}

/** A sentence for the person choosing a password, or null when it is acceptable. */
export function describePasswordProblem(password: string): string | null {
	if (password.length < PASSWORD_MIN_LENGTH) return `The password needs at least ${PASSWORD_MIN_LENGTH} characters.`;
	if (password.length > PASSWORD_MAX_LENGTH) return `The password may have at most ${PASSWORD_MAX_LENGTH} characters.`;
	return null;
}
