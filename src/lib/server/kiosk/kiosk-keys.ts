import { createHash, randomBytes } from 'node:crypto';
import type { Db, Tx } from '../db/client.ts';
import { takeToken } from '../rate-limits/rate-limit-buckets.repository.ts';
import type { RateLimit } from '../rate-limits/token-bucket.ts';
import type { Clock } from '../time/clock.ts';

/**
 * Kiosk keys: only a registered kiosk may start guest sessions. Operators issue a key per kiosk
 * (the console's Kiosks page or `npm run kiosk:add`, both through kiosk-admin.ts addKiosk); the
 * kiosk page takes it once (typed in, or from the pairing link's QR) and keeps it in an httpOnly cookie. Only
 * the key's SHA-256 is stored, so a leaked database gives no usable key. Keys carry 256 random bits,
 * so a plain hash (no salt, no slow KDF) is the right tool, as for API tokens.
 */
export interface Kiosk {
	id: number;
	name: string;
}

const KEY_PREFIX = 'kk_';

export function hashKioskKey(key: string): string {
	return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function generateKioskKey(): string {
	return KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** Inserts a kiosk with a fresh key (the unique name refuses a second of the same name: P2002). */
export async function createKiosk(db: Db | Tx, clock: Clock, name: string): Promise<{ kiosk: Kiosk; key: string }> {
	const key = generateKioskKey();
	const row = await db.kiosk.create({
		data: { name, keyHash: hashKioskKey(key), createdAt: clock.now().toISOString() }
	});
	return { kiosk: { id: row.id, name: row.name }, key };
}

/** The kiosk a key belongs to, or null for an unknown or revoked key. */
export async function findKioskByKey(db: Db, key: string | undefined | null): Promise<Kiosk | null> {
	if (!key || key.length > 200) return null;
	const row = await db.kiosk.findUnique({
		where: { keyHash: hashKioskKey(key) },
		select: { id: true, name: true, revokedAt: true }
	});
	return row && !row.revokedAt ? { id: row.id, name: row.name } : null;
}

/**
 * Limits on typing a key in (POST /api/kiosk/key). Guessing a 256-bit key is hopeless, so these only
 * slow floods down — and they must never starve the real kiosk, which may share its address (event
 * Wi-Fi) with whoever floods. So a valid key is never refused: its lookup is one indexed read, as
 * cheap as the cookie check every kiosk request makes. What is counted is wrong keys: per source
 * (the client's hash, never its address) — a device typing wrong keys is told to slow down — and
 * across all sources, past which every wrong key is told to slow down (429) instead of "unknown key".
 * The buckets are keyed by the source, never by the key typed, so a flood of different wrong keys
 * from one source adds one row, not one per key (and buckets full again are pruned as for every limit).
 */
export interface KeyEntryLimits {
	wrongKeysFromSource: RateLimit;
	wrongKeysEverywhere: RateLimit;
}

export const KEY_ENTRY_LIMITS: KeyEntryLimits = {
	wrongKeysFromSource: { name: 'kiosk-key-source', capacity: 5, refillPerSecond: 1 / 30 },
	wrongKeysEverywhere: { name: 'kiosk-key-wrong', capacity: 300, refillPerSecond: 5 }
};

export type KeyEntry =
	{ kind: 'accepted'; kiosk: Kiosk } | { kind: 'unknown' } | { kind: 'slow_down'; retryAfterSeconds: number };

/** `clientHash` is the client's hash (privacy/ip-hash.ts), never its address. */
export async function enterKioskKey(
	db: Db,
	clock: Clock,
	key: string,
	clientHash: string,
	limits: KeyEntryLimits = KEY_ENTRY_LIMITS
): Promise<KeyEntry> {
	const kiosk = await findKioskByKey(db, key);
	if (kiosk) return { kind: 'accepted', kiosk };
	// A refused take writes nothing, so a source past its allowance adds no row either.
	const fromSource = await takeToken(db, clock, limits.wrongKeysFromSource, clientHash);
	if (!fromSource.allowed) return { kind: 'slow_down', retryAfterSeconds: fromSource.retryAfterSeconds };
	const everywhere = await takeToken(db, clock, limits.wrongKeysEverywhere, 'all');
	if (!everywhere.allowed) return { kind: 'slow_down', retryAfterSeconds: everywhere.retryAfterSeconds };
	return { kind: 'unknown' };
}

export async function touchKiosk(db: Db, clock: Clock, kioskId: number): Promise<void> {
	await db.kiosk.update({ where: { id: kioskId }, data: { lastSeenAt: clock.now().toISOString() } });
}

/**
 * First run: with no kiosk registered yet, registers "kiosk-1" and returns its key (to print once),
 * so the demo works out of the box. Later runs return null. The unique name makes two processes
 * starting at once harmless: one of the inserts fails and that one returns null.
 */
export async function ensureFirstKiosk(db: Db, clock: Clock): Promise<{ name: string; key: string } | null> {
	if ((await db.kiosk.count()) > 0) return null;
	try {
		const { kiosk, key } = await createKiosk(db, clock, 'kiosk-1');
		return { name: kiosk.name, key };
	} catch {
		return null;
	}
}
