import type { Db } from '../db/client.ts';
import { DAY, type Clock } from '../time/clock.ts';
import { tableExists, type SqlRunner } from './sql-runner.ts';

/**
 * retired_sticker_sets: the sticker sets of a guest whose rows went without the sets — an operator's
 * reset or the retention erasure leave the pack in the guest's Telegram on purpose — so that a later
 * /forget can still delete them. It holds only the set's name and the owner's Telegram id, and has
 * its own clock: /forget deletes the guest's rows here (after deleting the sets), and a row goes
 * RETIRED_SET_DAYS after it was written. Raw SQL through a SqlRunner, like the other erasure rows:
 * the same statements run when a restore replays an erasure on a backup file.
 */
export const RETIRED_SET_DAYS = 365;
const TABLE = 'retired_sticker_sets';

export type RetireReason = 'reset_user' | 'retention';

/** Remembers the guest's sets (a name already listed keeps its first entry). */
export async function retireStickerSets(
	sql: SqlRunner,
	telegramUserId: bigint,
	names: string[],
	retiredAt: string,
	reason: RetireReason
): Promise<number> {
	if (names.length === 0 || !(await tableExists(sql, TABLE))) return 0;
	let added = 0;
	for (const name of [...new Set(names)].sort()) {
		added += await sql.run(
			`INSERT INTO ${TABLE} (name, telegram_user_id, retired_at, reason) VALUES (?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`,
			[name, telegramUserId, retiredAt, reason]
		);
	}
	return added;
}

export async function readRetiredStickerSets(sql: SqlRunner, telegramUserId: bigint): Promise<string[]> {
	if (!(await tableExists(sql, TABLE))) return [];
	const rows = await sql.all<{ name: string }>(`SELECT name FROM ${TABLE} WHERE telegram_user_id = ? ORDER BY name`, [
		telegramUserId
	]);
	return rows.map((row) => row.name);
}

/** Whose sets are listed: a restore's replay must find a guest known only here (their rows gone). */
export async function listRetiredSetOwners(sql: SqlRunner): Promise<bigint[]> {
	if (!(await tableExists(sql, TABLE))) return [];
	const rows = await sql.all<{ u: unknown }>(`SELECT DISTINCT telegram_user_id AS u FROM ${TABLE}`);
	return rows.map((row) => BigInt(String(row.u)));
}

/** /forget: the sets are deleted in Telegram, nothing is left to remember. */
export async function forgetRetiredStickerSets(sql: SqlRunner, telegramUserId: bigint): Promise<number> {
	if (!(await tableExists(sql, TABLE))) return 0;
	return sql.run(`DELETE FROM ${TABLE} WHERE telegram_user_id = ?`, [telegramUserId]);
}

/** The retention pass: rows older than RETIRED_SET_DAYS go (the sets stay the guest's, in Telegram). */
export async function deleteExpiredRetiredSets(db: Db, clock: Clock): Promise<number> {
	const before = new Date(clock.now().getTime() - RETIRED_SET_DAYS * DAY).toISOString();
	const { count } = await db.retiredStickerSet.deleteMany({ where: { retiredAt: { lt: before } } });
	return count;
}
