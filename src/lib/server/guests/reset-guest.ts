import path from 'node:path';
import { recordAudit, type Actor } from '../audit/audit-log.ts';
import { DomainError } from '../errors/domain-error.ts';
import type { Db, Tx } from '../db/client.ts';
import { dialectOf } from '../db/dialect/dialect.ts';
import { lockRows } from '../db/dialect/row-locks.ts';
import { backupDatabase, backupPathFor, openSqliteFile } from '../db/sqlite-file.ts';
import type { FileStore } from '../files/file-store.ts';
import { packLink } from '../jobs/delivery/pack-name.ts';
import { removeGuestFiles } from '../lifecycle/guest-erasure.ts';
import { deleteGuestRows, fingerprintPackNames, readGuestFootprint, recordErasure } from '../lifecycle/guest-rows.ts';
import { pseudonymForGuest } from '../lifecycle/pseudonym.ts';
import { retireStickerSets } from '../lifecycle/retired-sticker-sets.ts';
import { prismaRunner } from '../lifecycle/sql-runner.ts';
import type { Logger } from '../log/logger.ts';
import type { Clock } from '../time/clock.ts';
import { CLAIMED_JOB_STATUSES } from '../../schemas/job-status.ts';

/**
 * reset_user: back the SQLite file up to `app.db.bak-<ts>-reset` (on PostgreSQL there is no file
 * to copy: `backup` is null and the log says so), then in one transaction
 * delete the guest's users/sessions/jobs rows (and the rows other features keep per session or job),
 * keep api_usage, and write the audit entry. Its details keep the old pack names and links in
 * clear — generation reads `packNames` so a new pack never reuses an old name. The shape is agreed:
 * `{ deleted: { users, sessions, jobs }, backup, packLinks, packNames }`.
 */
export interface ResetGuestDeps {
	db: Db;
	clock: Clock;
	dbPath: string;
	/** Where the guest's files are: the process's one store. */
	fileStore: FileStore;
	/** From loadPseudonymKey(DATA_DIR): the erasure ledger names the guest only by pseudonym. */
	pseudonymKey: Buffer;
	/** Where a failed backup or file removal is reported (the reset goes on or stops, and says why). */
	logger: Logger;
}

export interface ResetGuestDetails {
	deleted: { users: number; sessions: number; jobs: number };
	/** The backup file's name; null on a database server (PostgreSQL), whose backups are its dumps. */
	backup: string | null;
	packLinks: string[];
	packNames: string[];
}

export async function resetGuest(
	deps: ResetGuestDeps,
	actor: Actor,
	telegramUserId: bigint
): Promise<ResetGuestDetails> {
	await refuseUnlessResettable(deps.db, telegramUserId);
	const backupPath = await backUpBeforeReset(deps);
	const { details, footprint } = await deps.db.$transaction(async (tx) => {
		// Checked again inside the write lock: the worker may have claimed a job since. On PostgreSQL
		// the guest's sessions are locked first, so a photo taken meanwhile waits or is refused.
		await lockRows(tx, 'sessions', 'telegram_user_id', [telegramUserId]);
		await refuseUnlessResettable(tx, telegramUserId);
		const sql = prismaRunner(tx);
		const user = await tx.user.findUnique({ where: { telegramUserId }, select: { packLink: true } });
		const footprint = await readGuestFootprint(sql, telegramUserId);
		// deleteGuestRows also takes the rows kept per job (progress, leases, redraws, bot messages);
		// the guest's news opt-out (or opt-in) and bot-blocked mark stay: they did not change their mind.
		const deleted = await deleteGuestRows(sql, telegramUserId, footprint, { keepChoices: true });
		// The sets stay in the guest's Telegram; a later /forget deletes them from this list.
		await retireStickerSets(sql, telegramUserId, footprint.packNames, deps.clock.now().toISOString(), 'reset_user');
		const packNames = [...footprint.packNames].sort();
		const packLinks = [...new Set([...(user?.packLink ? [user.packLink] : []), ...packNames.map(packLink)])];
		const details: ResetGuestDetails = {
			deleted: { users: deleted.users ?? 0, sessions: deleted.sessions ?? 0, jobs: deleted.jobs ?? 0 },
			backup: backupPath === null ? null : path.basename(backupPath),
			packLinks,
			packNames
		};
		await recordErasure(sql, {
			kind: 'guest',
			subject: pseudonymForGuest(deps.pseudonymKey, telegramUserId),
			reason: 'reset_user',
			erasedAt: deps.clock.now().toISOString(),
			packNameHashes: fingerprintPackNames(deps.pseudonymKey, packNames)
		});
		await recordAudit(tx, deps.clock, actor, { action: 'reset_user', telegramUserId, details });
		return { details, footprint };
	});
	// Files are not in the backup and name nobody once the rows are gone; a failure here only logs.
	await removeGuestFiles(deps.fileStore, footprint).catch((error: unknown) =>
		deps.logger.warn({ err: error }, 'reset: guest files not removed')
	);
	return details;
}

async function refuseUnlessResettable(db: Db | Tx, telegramUserId: bigint): Promise<void> {
	const [user, jobs, sessions, busy] = await Promise.all([
		db.user.count({ where: { telegramUserId } }),
		db.job.count({ where: { telegramUserId } }),
		db.session.count({ where: { telegramUserId } }),
		db.job.count({ where: { telegramUserId, status: { in: [...CLAIMED_JOB_STATUSES] } } })
	]);
	if (user + jobs + sessions === 0)
		throw new DomainError({ code: 'GuestNotFound', telegramUserId, perhapsReset: true });
	if (busy > 0) throw new DomainError({ code: 'GuestPackInProgress', telegramUserId });
}

/**
 * SQLite's backup API gives a consistent copy of the file while the worker keeps writing. A
 * database on a server is no file of ours (DB_PATH names nothing there), so the reset copies nothing.
 */
async function backUpBeforeReset(deps: ResetGuestDeps): Promise<string | null> {
	if (dialectOf(deps.db).storage !== 'file') {
		deps.logger.info('reset: no file backup (the database is on a server, which keeps its own backups)');
		return null;
	}
	const target = backupPathFor(deps.dbPath, deps.clock, 'reset');
	const conn = openSqliteFile(deps.dbPath);
	try {
		await backupDatabase(conn, target);
	} catch (error) {
		deps.logger.error({ err: error }, 'reset: backup failed');
		throw new DomainError({ code: 'ResetBackupFailed' });
	} finally {
		conn.close();
	}
	return target;
}
