import type { Db } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';
import { DAY } from '../time/clock.ts';

/**
 * The same Telegram update delivered twice has one effect. The state machine
 * already makes every guest step idempotent; this ledger also keeps a replayed update from
 * producing a second reply. Raw SQL because Prisma has no "insert unless present" that reports
 * whether it inserted; ON CONFLICT DO NOTHING says it the same way in SQLite and PostgreSQL.
 */
export async function claimUpdate(db: Db, clock: Clock, updateId: number): Promise<boolean> {
	const inserted = await db.$executeRaw`INSERT INTO processed_updates (update_id, handled_at) VALUES (${BigInt(updateId)}, ${clock.now().toISOString()}) ON CONFLICT DO NOTHING`;
	return inserted > 0;
}

/** Telegram redelivers within hours at most; a day of memory is plenty. */
export async function forgetOldUpdates(db: Db, clock: Clock, keepMs = DAY): Promise<number> {
	const before = new Date(clock.now().getTime() - keepMs).toISOString();
	const { count } = await db.processedUpdate.deleteMany({ where: { handledAt: { lt: before } } });
	return count;
}
