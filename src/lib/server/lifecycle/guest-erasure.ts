import type { Db } from '../db/client.ts';
import { lockRows } from '../db/dialect/row-locks.ts';
import type { FileStore } from '../files/file-store.ts';
import type { Clock } from '../time/clock.ts';
import {
	deleteGuestRows,
	fingerprintPackNames,
	hasActiveJob,
	pseudonymiseGuestAudit,
	readGuestFootprint,
	recordErasure,
	type GuestFootprint
} from './guest-rows.ts';
import { pseudonymForGuest } from './pseudonym.ts';
import { forgetRetiredStickerSets, retireStickerSets } from './retired-sticker-sets.ts';
import { prismaRunner, type SqlRunner } from './sql-runner.ts';

/** Why a guest's data went: their own /forget, the retention period, or a console reset. */
export type GuestErasureReason = 'forget' | 'retention' | 'reset_user';

export interface GuestErasureDeps {
	db: Db;
	clock: Clock;
	/** From loadPseudonymKey(DATA_DIR). */
	pseudonymKey: Buffer;
	/** Where the guest's files are: the process's one store. */
	fileStore: FileStore;
}

export interface GuestErasure {
	pseudonym: string;
	deleted: Record<string, number>;
	auditEntriesPseudonymised: number;
	footprint: GuestFootprint;
}

export class GuestBusyError extends Error {
	override name = 'GuestBusyError';
	constructor() {
		super('the guest has a pack being made right now');
	}
}

/**
 * Erases a guest in one BEGIN IMMEDIATE transaction: their rows go, their audit entries are
 * pseudonymised, and the erasure ledger gets an entry (pseudonym + fingerprints of their pack
 * names) so a restored backup can erase them again and a returning guest never gets an old pack
 * name. Files go after the commit. A guest with a job in flight is refused (GuestBusyError):
 * the pipeline would otherwise deliver a pack to rows that no longer exist.
 */
export async function eraseGuest(
	deps: GuestErasureDeps,
	telegramUserId: bigint,
	reason: GuestErasureReason
): Promise<GuestErasure> {
	const erasure = await deps.db.$transaction(async (tx) => {
		// A photo taken meanwhile moves one of these sessions: locked, it waits for the erasure (then
		// finds its session gone) or the erasure waits for it (then finds the job active).
		await lockRows(tx, 'sessions', 'telegram_user_id', [telegramUserId]);
		const sql = prismaRunner(tx);
		if (await hasActiveJob(sql, telegramUserId)) throw new GuestBusyError();
		return eraseGuestRows(sql, deps.pseudonymKey, telegramUserId, reason, deps.clock.now().toISOString());
	});
	await removeGuestFiles(deps.fileStore, erasure.footprint);
	return erasure;
}

/** The row part of an erasure, on any connection (also used on a restored backup file). */
export async function eraseGuestRows(
	sql: SqlRunner,
	key: Buffer,
	telegramUserId: bigint,
	reason: string,
	erasedAt: string,
	record = true
): Promise<GuestErasure> {
	const pseudonym = pseudonymForGuest(key, telegramUserId);
	const footprint = await readGuestFootprint(sql, telegramUserId);
	// A console reset replayed on a restored backup keeps the guest's news choice and block mark, as the reset did.
	const deleted = await deleteGuestRows(sql, telegramUserId, footprint, { keepChoices: reason === 'reset_user' });
	// /forget deleted the sets in Telegram first; retention leaves them with the guest, so a later
	// /forget must still find their names (retired_sticker_sets).
	if (reason === 'forget') deleted.retired_sticker_sets = await forgetRetiredStickerSets(sql, telegramUserId);
	else
		await retireStickerSets(
			sql,
			telegramUserId,
			footprint.packNames,
			erasedAt,
			reason === 'reset_user' ? 'reset_user' : 'retention'
		);
	const auditEntriesPseudonymised = await pseudonymiseGuestAudit(sql, telegramUserId, pseudonym);
	if (record) {
		await recordErasure(sql, {
			kind: 'guest',
			subject: pseudonym,
			reason,
			erasedAt,
			packNameHashes: fingerprintPackNames(key, footprint.packNames)
		});
	}
	return { pseudonym, deleted, auditEntriesPseudonymised, footprint };
}

const SAFE_NAME = /^[A-Za-z0-9_-]+$/;

/** Session folders of the guest and the debug sheets of their jobs (`debug_sheets/job<N>_*`). */
export async function removeGuestFiles(
	files: FileStore,
	footprint: Pick<GuestFootprint, 'sessionTokens' | 'jobIds'>
): Promise<number> {
	let removed = 0;
	for (const token of footprint.sessionTokens) {
		if (!SAFE_NAME.test(token)) continue; // never let a stored value steer a delete outside the session folders
		await files.deleteFolder(`sessions/${token}`);
		removed++;
	}
	for (const jobId of footprint.jobIds) {
		for (const sheet of await files.list(`debug_sheets/job${jobId}_`)) {
			await files.delete(sheet.key);
			removed++;
		}
	}
	return removed;
}
