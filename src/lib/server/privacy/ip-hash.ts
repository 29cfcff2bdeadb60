import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIPv4, isIPv6 } from 'node:net';
import path from 'node:path';

/**
 * Client addresses are never stored or logged. Whatever needs to tell clients
 * apart — the leads' ip_hash (rate limit, repeats), sign-in throttling, kiosk key entry — keeps only
 * the first 32 hex characters of HMAC-SHA256(client group, LEADS_IP_SALT). Without the salt the hash
 * cannot be reversed by trying all 4 billion IPv4 addresses.
 */
export function hashClientIp(ip: string, salt: string): string {
	return createHmac('sha256', salt).update(clientGroup(ip)).digest('hex').slice(0, 32);
}

/**
 * Which client an address stands for. IPv4 is one address, also when written IPv4-mapped
 * ("::ffff:1.2.3.4"). IPv6 is grouped by its /64: one subscriber or LAN gets a whole /64 and can use
 * any address in it, so counting single addresses would let every request come from a new one.
 * Anything else (no address known) is kept as written.
 */
export function clientGroup(ip: string): string {
	const address = ip
		.trim()
		.toLowerCase()
		.replace(/^\[(.*)\]$/, '$1')
		.replace(/%.*$/, '');
	if (isIPv4(address)) return address;
	if (!isIPv6(address)) return address;
	const hextets = expandIpv6(address);
	if (hextets.slice(0, 5).every((h) => h === 0) && hextets[5] === 0xffff) {
		const [high, low] = [hextets[6]!, hextets[7]!];
		return [high >> 8, high & 255, low >> 8, low & 255].join('.');
	}
	return `${hextets
		.slice(0, 4)
		.map((h) => h.toString(16))
		.join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address ("::" filled in, a trailing IPv4 part converted). */
function expandIpv6(address: string): number[] {
	let text = address;
	const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
	if (dotted) {
		const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
		text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
	}
	const [head = '', tail] = text.split('::');
	const groups = (part: string) => (part === '' ? [] : part.split(':').map((h) => parseInt(h, 16)));
	const left = groups(head);
	const right = tail === undefined ? [] : groups(tail);
	return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

export const DEV_SALT_FILE = '.leads-ip-salt';

/**
 * The salt: LEADS_IP_SALT when set (production requires it — the config enforces that). In
 * development a random salt is made once and kept in DATA_DIR/.leads-ip-salt (mode 600), so
 * hashes stay comparable across restarts (rate limits, repeat detection, throttling).
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

const loaded = new Map<string, string>();

/** The salt of this install, read once per process (request handlers call this on every request). */
export function ipSaltFor(config: { LEADS_IP_SALT?: string; dataDir: string }): string {
	const key = `${config.LEADS_IP_SALT ?? ''}\n${config.dataDir}`;
	let salt = loaded.get(key);
	if (salt === undefined) {
		salt = loadIpSalt(config.LEADS_IP_SALT, config.dataDir);
		loaded.set(key, salt);
	}
	return salt;
}
