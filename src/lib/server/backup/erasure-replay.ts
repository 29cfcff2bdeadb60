import Database from 'better-sqlite3';
import { integrityCheck } from '../db/migrations/schema-shape.ts';
import { eraseGuestRows } from '../lifecycle/guest-erasure.ts';
import { listGuestIds, recordErasure } from '../lifecycle/guest-rows.ts';
import { eraseLeadRows } from '../lifecycle/lead-rows.ts';
import { pseudonymForGuest } from '../lifecycle/pseudonym.ts';
import { listRetiredSetOwners } from '../lifecycle/retired-sticker-sets.ts';
import { sqliteRunner, tableExists, type SqlRunner } from '../lifecycle/sql-runner.ts';

/**
 * Erasures a restore must not undo (an erased guest or lead never comes back). Taken from the database being replaced:
 * - guests: the erasure ledger since the backup was taken (forget, retention, and console resets
 *   that record themselves), plus `reset_user` audit entries since then that still name the guest;
 * - leads: every lead with erased_at set (re-erasing an erased lead changes nothing), plus lead
 *   entries in the ledger since the backup.
 */
export interface ErasuresToReplay {
	guests: GuestErasureToReplay[];
	leads: { id: number; erasedAt: string }[];
}

interface GuestErasureToReplay {
	subject: string;
	reason: string;
	erasedAt: string;
	/** The ledger row as it was, copied into the restored database; null for a reset found in audit_log. */
	packNameHashes: string[] | null;
	fromLedger: boolean;
}

export class ReplayError extends Error {
	override name = 'ReplayError';
}

/** Reads the erasures from the current SQLite file, after checking it can be read reliably. */
export async function collectErasures(currentDbPath: string, since: string, key: Buffer): Promise<ErasuresToReplay> {
	let conn: Database.Database;
	try {
		conn = new Database(currentDbPath, { readonly: true, fileMustExist: true });
	} catch (error) {
		throw new ReplayError(`cannot read the current database to carry its erasures over: ${(error as Error).message}`);
	}
	try {
		const integrity = integrityCheck(conn);
		if (integrity !== 'ok')
			throw new ReplayError(
				`the current database fails integrity_check (${integrity}); its erasures cannot be read reliably`
			);
		return await collectErasuresFrom(sqliteRunner(conn), since, key);
	} finally {
		conn.close();
	}
}

/** The erasures recorded in the database behind `sql` since `since` (either engine). */
export async function collectErasuresFrom(sql: SqlRunner, since: string, key: Buffer): Promise<ErasuresToReplay> {
	return { guests: await collectGuestErasures(sql, since, key), leads: await collectLeadErasures(sql, since) };
}

async function collectGuestErasures(sql: SqlRunner, since: string, key: Buffer): Promise<GuestErasureToReplay[]> {
	const found: GuestErasureToReplay[] = [];
	if (await tableExists(sql, 'erasures')) {
		const rows = await sql.all<{ subject: string; reason: string; erased_at: string; h: string | null }>(
			`SELECT subject, reason, erased_at, pack_name_hashes AS h FROM erasures WHERE kind = 'guest' AND ${sql.dialect.instant('erased_at')} >= ${sql.dialect.instant('?')} ORDER BY id`,
			[since]
		);
		for (const r of rows)
			found.push({
				subject: r.subject,
				reason: r.reason,
				erasedAt: r.erased_at,
				packNameHashes: r.h ? (JSON.parse(r.h) as string[]) : null,
				fromLedger: true
			});
	}
	const resets = await sql.all<{ u: unknown; ts: string }>(
		`SELECT telegram_user_id AS u, ts FROM audit_log WHERE action = 'reset_user' AND telegram_user_id IS NOT NULL AND ${sql.dialect.instant('ts')} >= ${sql.dialect.instant('?')}`,
		[since]
	);
	for (const r of resets) {
		const subject = pseudonymForGuest(key, BigInt(String(r.u)));
		if (!found.some((g) => g.subject === subject))
			found.push({ subject, reason: 'reset_user', erasedAt: r.ts, packNameHashes: null, fromLedger: false });
	}
	return found;
}

async function collectLeadErasures(sql: SqlRunner, since: string): Promise<{ id: number; erasedAt: string }[]> {
	const leads = await sql.all<{ id: number; erased_at: string }>(
		`SELECT id, erased_at FROM leads WHERE erased_at IS NOT NULL`
	);
	const result = new Map(leads.map((l) => [Number(l.id), l.erased_at]));
	if (await tableExists(sql, 'erasures')) {
		const rows = await sql.all<{ subject: string; erased_at: string }>(
			`SELECT subject, erased_at FROM erasures WHERE kind = 'lead' AND ${sql.dialect.instant('erased_at')} >= ${sql.dialect.instant('?')}`,
			[since]
		);
		for (const r of rows)
			if (/^\d+$/.test(r.subject) && !result.has(Number(r.subject))) result.set(Number(r.subject), r.erased_at);
	}
	return [...result].map(([id, erasedAt]) => ({ id, erasedAt }));
}

/** Applies the erasures to the restored SQLite copy in one transaction; returns how many rows needed it. */
export async function applyErasures(
	conn: Database.Database,
	erasures: ErasuresToReplay,
	key: Buffer
): Promise<{ guests: number; leads: number }> {
	conn.exec('BEGIN IMMEDIATE');
	try {
		const applied = await applyErasuresWith(sqliteRunner(conn), erasures, key);
		conn.exec('COMMIT');
		return applied;
	} catch (error) {
		conn.exec('ROLLBACK');
		throw error;
	}
}

/** Applies the erasures through `sql`, which the caller runs inside one transaction (either engine). */
export async function applyErasuresWith(
	sql: SqlRunner,
	erasures: ErasuresToReplay,
	key: Buffer
): Promise<{ guests: number; leads: number }> {
	const guests = await replayGuestErasures(sql, erasures.guests, key);
	let leads = 0;
	for (const lead of erasures.leads) leads += await eraseLeadRows(sql, lead.id, lead.erasedAt);
	return { guests, leads };
}

async function replayGuestErasures(sql: SqlRunner, erasures: GuestErasureToReplay[], key: Buffer): Promise<number> {
	// Audit entries count too: a guest reset before the backup may be named only there — or only in
	// the retired-set list, whose rows a later /forget must take out of the restored copy as well.
	const auditIds = await sql.all<{ u: unknown }>(
		`SELECT DISTINCT telegram_user_id AS u FROM audit_log WHERE telegram_user_id IS NOT NULL`
	);
	const ids = [
		...(await listGuestIds(sql)),
		...auditIds.map((r) => BigInt(String(r.u))),
		...(await listRetiredSetOwners(sql))
	];
	const idBySubject = new Map(ids.map((id) => [pseudonymForGuest(key, id), id]));
	const hasLedger = await tableExists(sql, 'erasures');
	let erased = 0;
	for (const erasure of erasures) {
		const id = idBySubject.get(erasure.subject);
		if (id !== undefined) {
			// A ledger row is copied as it was; a reset found only in audit_log gets its ledger row now.
			await eraseGuestRows(sql, key, id, erasure.reason, erasure.erasedAt, hasLedger && !erasure.fromLedger);
			erased++;
		}
		if (hasLedger && erasure.fromLedger) {
			await recordErasure(sql, {
				kind: 'guest',
				subject: erasure.subject,
				reason: erasure.reason,
				erasedAt: erasure.erasedAt,
				packNameHashes: erasure.packNameHashes
			});
		}
	}
	return erased;
}
