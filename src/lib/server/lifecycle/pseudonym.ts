import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Keyed pseudonyms for erased guests. The key lives in a file next to the data (not in the
 * database), so a leaked database or backup alone cannot link a pseudonym back to a Telegram id.
 * The same guest always gets the same pseudonym, which is what lets a restore find and re-erase
 * them in an old backup, and lets a returning guest's new pack avoid an old pack's name.
 */
export const PSEUDONYM_KEY_FILE = 'pseudonym.key';

const cache = new Map<string, Buffer>();

/** Reads `DATA_DIR/pseudonym.key`, creating it (32 random bytes, mode 600) on first use. */
export function loadPseudonymKey(dataDir: string): Buffer {
	const file = path.join(dataDir, PSEUDONYM_KEY_FILE);
	const known = cache.get(file);
	if (known) return known;
	mkdirSync(dataDir, { recursive: true });
	try {
		// 'wx' fails if the file exists: two processes racing at first use agree on one key.
		writeFileSync(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
		chmodSync(file, 0o600);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
	}
	const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
	if (key.length < 16) throw new Error(`${file} is not a valid pseudonym key (expected 64 hex characters)`);
	cache.set(file, key);
	return key;
}

function hmacHex(key: Buffer, text: string): string {
	return createHmac('sha256', key).update(text).digest('hex');
}

/** `g_<24 hex>`: stands in for a guest's Telegram id in the erasure ledger and in audit details. */
export function pseudonymForGuest(key: Buffer, telegramUserId: bigint): string {
	return `g_${hmacHex(key, `guest:${telegramUserId}`).slice(0, 24)}`;
}

/** The fingerprint of a retired sticker-set name (names embed the Telegram id, so never kept in clear). */
export function fingerprintPackName(key: Buffer, packName: string): string {
	return hmacHex(key, `pack:${packName.toLowerCase()}`).slice(0, 32);
}
