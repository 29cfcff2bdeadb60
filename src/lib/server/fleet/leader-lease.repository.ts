import type { Db } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';

/**
 * A named lease in `leader_leases` that one process holds at a time. Taking it is one statement on
 * both engines: an INSERT of the row, or, when the row exists, an UPDATE only if the lease is free
 * (expired) or already ours — so of several processes racing, exactly one gets a row changed.
 * Times are ISO 8601 UTC text of one length, so comparing the text compares the instants.
 */
export interface LeaseTerms {
	name: string;
	holder: string;
	ttlMs: number;
}

/** Takes the lease when it is free, expired or already ours; true when we hold it now. */
export async function acquireLease(db: Db, clock: Clock, terms: LeaseTerms): Promise<boolean> {
	const now = clock.now();
	const nowText = now.toISOString();
	const expiresAt = new Date(now.getTime() + terms.ttlMs).toISOString();
	const changed = await db.$executeRaw`
		INSERT INTO leader_leases (name, holder, expires_at, renewed_at)
		VALUES (${terms.name}, ${terms.holder}, ${expiresAt}, ${nowText})
		ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at, renewed_at = excluded.renewed_at
		WHERE leader_leases.expires_at <= ${nowText} OR leader_leases.holder = excluded.holder`;
	return changed === 1;
}

/**
 * Takes the lease whoever holds it: for a process that knows it is the only one (SQLite, where the
 * instance lock of the data folder keeps a second worker out), so a lease left by a killed
 * predecessor does not hold it up until it expires.
 */
export async function seizeLease(db: Db, clock: Clock, terms: LeaseTerms): Promise<void> {
	const now = clock.now();
	const expiresAt = new Date(now.getTime() + terms.ttlMs).toISOString();
	const data = { holder: terms.holder, expiresAt, renewedAt: now.toISOString() };
	await db.leaderLease.upsert({ where: { name: terms.name }, create: { name: terms.name, ...data }, update: data });
}

/** Extends our lease; false when it is no longer ours (another process took it after it expired). */
export async function renewLease(db: Db, clock: Clock, terms: LeaseTerms): Promise<boolean> {
	const now = clock.now();
	const { count } = await db.leaderLease.updateMany({
		where: { name: terms.name, holder: terms.holder },
		data: { expiresAt: new Date(now.getTime() + terms.ttlMs).toISOString(), renewedAt: now.toISOString() }
	});
	return count === 1;
}

/** Gives the lease up at once (if it is still ours), so another process need not wait for expiry. */
export async function releaseLease(db: Db, terms: Pick<LeaseTerms, 'name' | 'holder'>): Promise<void> {
	await db.leaderLease.deleteMany({ where: { name: terms.name, holder: terms.holder } });
}
