import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Visitor IPs are never stored or logged: a lead keeps only
 * ip_hash = the first 32 hex characters of HMAC-SHA256(ip, LEADS_IP_SALT). Without the salt the
 * hash cannot be reversed by trying all 4 billion IPv4 addresses.
 */
export function hashVisitorIp(ip: string, salt: string): string {
	return createHmac('sha256', salt).update(canonicalIp(ip)).digest('hex').slice(0, 32);
}

/** The same visitor over IPv4 and IPv4-mapped IPv6 ("::ffff:1.2.3.4") hashes the same. */
function canonicalIp(ip: string): string {
	const trimmed = ip.trim().toLowerCase();
	return trimmed.startsWith('::ffff:') && trimmed.includes('.') ? trimmed.slice(7) : trimmed;
}

export const DEV_SALT_FILE = '.leads-ip-salt';

/**
 * The salt: LEADS_IP_SALT when set (production requires it — the config enforces that). In
 * development a random salt is made once and kept in DATA_DIR/.leads-ip-salt (mode 600), so
 * hashes stay comparable across restarts (rate limits, repeat detection).
 */
export function loadIpSalt(configured: string | undefined, dataDir: string): string {
	if (configured) return configured;
	const file = path.join(dataDir, DEV_SALT_FILE);
	mkdirSync(dataDir, { recursive: true });
	try {
		// 'wx' fails if the file exists, so two processes starting at once keep the first salt.
		writeFileSync(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
	}
	chmodSync(file, 0o600);
	const salt = readFileSync(file, 'utf8').trim();
	if (salt.length < 16) throw new Error(`${file} holds no usable salt; delete it to make a new one`);
	return salt;
}
