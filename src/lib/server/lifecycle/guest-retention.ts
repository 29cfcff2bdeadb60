import type { Db } from '../db/client.ts';
import { dialectOf } from '../db/dialect/dialect.ts';
import { sqlList } from '../jobs/job.repository.ts';
import type { Logger } from '../log/logger.ts';
import { DAY, type Clock } from '../time/clock.ts';
import { ACTIVE_JOB_STATUSES } from '../../schemas/job-status.ts';
import { eraseGuest, GuestBusyError, type GuestErasureDeps } from './guest-erasure.ts';
import { extractPackNames, fingerprintPackNames, pseudonymiseGuestAudit, recordErasure } from './guest-rows.ts';
import { pseudonymForGuest } from './pseudonym.ts';
import { prismaRunner, toBigInt } from './sql-runner.ts';

/** How many guests one pass erases at most; the next pass continues (keeps each pass short). */
const BATCH = 200;

export interface RetentionDeps extends GuestErasureDeps {
	logger: Logger;
	retentionDays: number;
}

/**
 * Guest rows (users, sessions, jobs and what hangs off them) go GUEST_RETENTION_DAYS after the
 * guest's last activity: the newest of their sign-up, consent, pack delivery, any change to
 * their sessions or jobs, their last news choice and the bot-blocked mark — the last two also
 * sweep the choices an operator's reset keeps (and a stranger's /stop), which have no users row.
 * A guest with a job in flight is kept. Returns how many were erased.
 */
export async function eraseInactiveGuests(deps: RetentionDeps): Promise<number> {
	const before = cutoffIso(deps.clock, deps.retentionDays);
	const ids = await findInactiveGuests(deps.db, before);
	let erased = 0;
	for (const id of ids) {
		try {
			await eraseGuest(deps, id, 'retention');
			erased++;
		} catch (error) {
			if (error instanceof GuestBusyError) continue; // became active meanwhile
			deps.logger.error({ err: error }, 'could not erase an inactive guest; will retry next pass');
		}
	}
	return erased;
}

function cutoffIso(clock: Clock, days: number): string {
	return new Date(clock.now().getTime() - days * DAY).toISOString();
}

// Raw SQL: "last activity" spans three tables; Prisma cannot express the grouped max.
async function findInactiveGuests(db: Db, before: string): Promise<bigint[]> {
	const { instant, numberParams } = dialectOf(db);
	const rows = await db.$queryRawUnsafe<{ id: unknown }[]>(
		numberParams(
			`WITH activity(id, at) AS (
			SELECT telegram_user_id, created_at FROM users
			UNION ALL SELECT telegram_user_id, consented_at FROM users WHERE consented_at IS NOT NULL
			UNION ALL SELECT telegram_user_id, pack_completed_at FROM users WHERE pack_completed_at IS NOT NULL
			UNION ALL SELECT telegram_user_id, updated_at FROM sessions WHERE telegram_user_id IS NOT NULL
			UNION ALL SELECT telegram_user_id, updated_at FROM jobs
			UNION ALL SELECT telegram_user_id, updated_at FROM news_opt_ins
			UNION ALL SELECT telegram_user_id, blocked_at FROM guest_bot_blocks
		)
		SELECT id FROM activity GROUP BY id
		HAVING max(${instant('at')}) < ${instant('?')}
			AND id NOT IN (SELECT telegram_user_id FROM jobs WHERE status IN ${sqlList(ACTIVE_JOB_STATUSES)})
		LIMIT ${BATCH}`
		),
		before
	);
	return rows.map((r) => toBigInt(r.id));
}

/**
 * Audit entries about guests who no longer have any rows (reset by an operator) keep the
 * Telegram id only for the same retention period after the entry; then they are pseudonymised
 * like a retention erasure, and the pack names they quote are kept only as fingerprints.
 */
export async function pseudonymiseOrphanAudit(deps: RetentionDeps): Promise<number> {
	const before = cutoffIso(deps.clock, deps.retentionDays);
	const { instant, numberParams } = dialectOf(deps.db);
	const rows = await deps.db.$queryRawUnsafe<{ id: unknown }[]>(
		numberParams(`SELECT DISTINCT telegram_user_id AS id FROM audit_log a
		 WHERE telegram_user_id IS NOT NULL
		   AND NOT EXISTS (SELECT 1 FROM users u WHERE u.telegram_user_id = a.telegram_user_id)
		   AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.telegram_user_id = a.telegram_user_id)
		   AND NOT EXISTS (SELECT 1 FROM audit_log b WHERE b.telegram_user_id = a.telegram_user_id AND ${instant('b.ts')} >= ${instant('?')})
		 LIMIT ${BATCH}`),
		before
	);
	let done = 0;
	for (const row of rows) {
		await deps.db.$transaction(async (tx) => {
			const id = toBigInt(row.id);
			const sql = prismaRunner(tx);
			const details = await sql.all<{ d: string | null }>(
				`SELECT details AS d FROM audit_log WHERE telegram_user_id = ?`,
				[id]
			);
			const names = details.flatMap((r) => extractPackNames(r.d ?? ''));
			const pseudonym = pseudonymForGuest(deps.pseudonymKey, id);
			await pseudonymiseGuestAudit(sql, id, pseudonym);
			const packNameHashes = fingerprintPackNames(deps.pseudonymKey, names);
			await recordErasure(sql, {
				kind: 'guest',
				subject: pseudonym,
				reason: 'retention',
				erasedAt: deps.clock.now().toISOString(),
				packNameHashes
			});
		});
		done++;
	}
	return done;
}
