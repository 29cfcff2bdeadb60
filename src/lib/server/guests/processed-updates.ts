import type { Db } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';
import { DAY } from '../time/clock.ts';

/**
 * The same Telegram update delivered twice has one effect. The state machine
 * already makes every guest step idempotent; this ledger also keeps a replayed update from
 * producing a second reply. INSERT OR IGNORE is raw SQL because Prisma has no "insert unless
 * present" for SQLite that reports whether it inserted.
 */
export async function claimUpdate(db: Db, clock: Clock, updateId: number): Promise<boolean> {
	const inserted = await db.$executeRaw`INSERT OR IGNORE INTO processed_updates (update_id, handled_at) VALUES (${BigInt(updateId)}, ${clock.now().toISOString()})`;
	return inserted > 0;
}

/** Telegram redelivers within hours at most; a day of memory is plenty. */
export async function forgetOldUpdates(db: Db, clock: Clock, keepMs = DAY): Promise<number> {
	const before = new Date(clock.now().getTime() - keepMs).toISOString();
	const { count } = await db.processedUpdate.deleteMany({ where: { handledAt: { lt: before } } });
	return count;
}
