import { sha256 } from '@oslojs/crypto/sha2';
import { encodeHexLowerCase } from '@oslojs/encoding';

/**
 * The one-time code that proves a Telegram chat is an operator's: the console shows it, the chat
 * sends `/link <code>` to the bot. Any Telegram user can send /link, and the bot looks the code up
 * among every operator's, so it must be hard to guess: 8 characters of Crockford's base32 (40 bits),
 * on top of the 10-minute life and the per-chat limit on wrong codes. The alphabet has no I, L, O
 * or U, and reading normalises the look-alikes, so a code copied by hand still works.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const LENGTH = 8;

/** `ABCD-EFGH`: random, shown with a hyphen in the middle for reading. */
export function generateLinkCode(randomBytes: (n: number) => Uint8Array = cryptoBytes): string {
	const chars = Array.from(randomBytes(LENGTH), (byte) => ALPHABET[byte & 31]).join('');
	return `${chars.slice(0, 4)}-${chars.slice(4)}`;
}

/** The code as stored for comparison, or null when what was typed cannot be a code. */
export function normaliseLinkCode(typed: string): string | null {
	const plain = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
	if (plain.length !== LENGTH || [...plain].some((c) => !ALPHABET.includes(c))) return null;
	return plain;
}

/** Only the hash is kept: a copy of the database gives no code that could still be sent. */
export function hashLinkCode(normalised: string): string {
	return encodeHexLowerCase(sha256(new TextEncoder().encode(`operator-link:${normalised}`)));
}

function cryptoBytes(n: number): Uint8Array {
	const bytes = new Uint8Array(n);
	crypto.getRandomValues(bytes);
	return bytes;
}
