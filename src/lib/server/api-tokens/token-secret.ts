import { sha256 } from '@oslojs/crypto/sha2';
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding';

/**
 * A token's secret: `skt_` and 32 random bytes (256 bits) in lower-case base32. The prefix makes a
 * leaked secret easy to recognise (secret scanners, logs); only the SHA-256 is stored.
 */
export const SECRET_PREFIX = 'skt_';
const SECRET_SHAPE = /^skt_[a-z2-7]{52}$/;
/** How much of the secret the console shows to tell tokens apart (the prefix and 6 characters). */
const SHOWN_LENGTH = SECRET_PREFIX.length + 6;

export function generateTokenSecret(): string {
	const bytes = new Uint8Array(32);
	crypto.getRandomValues(bytes);
	return SECRET_PREFIX + encodeBase32LowerCaseNoPadding(bytes);
}

export function isTokenSecretShape(secret: string): boolean {
	return SECRET_SHAPE.test(secret);
}

export function hashTokenSecret(secret: string): string {
	return encodeHexLowerCase(sha256(new TextEncoder().encode(secret)));
}

export function shownPrefix(secret: string): string {
	return secret.slice(0, SHOWN_LENGTH);
}
