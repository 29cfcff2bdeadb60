import { sha256 } from '@oslojs/crypto/sha2';
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding';

/**
 * Console session tokens in the Lucia style: 20 random bytes (160 bits) as lower-case base32 in
 * the cookie; the database keeps only the token's SHA-256, so a leaked dump gives no usable cookie.
 */
export function generateSessionToken(): string {
	const bytes = new Uint8Array(20);
	crypto.getRandomValues(bytes);
	return encodeBase32LowerCaseNoPadding(bytes);
}

/** The row id of a session: hex SHA-256 of its token. */
export function hashSessionToken(token: string): string {
	return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}
