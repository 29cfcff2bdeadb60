import type { SqlRunner } from './sql-runner.ts';

/**
 * Erasure of a lead's rows: the organiser's personal data (contact fields, comment, ip_hash) becomes
 * NULL in the lead and its repeats, erased_at is set once and never moved; the row, its status and
 * history stay so statistics do not change. The same statements run in the live database (inside
 * the leads feature's erasure transaction) and on a restored backup no process has opened yet, so
 * a restore re-applies exactly what an erasure did. Returns 1 when the lead needed erasing.
 */
const LEAD_PERSONAL_COLUMNS = ['name', 'telegram', 'phone', 'comment', 'ip_hash'] as const;
/** A repeat keeps no name of its own. */
const REPEAT_PERSONAL_COLUMNS = LEAD_PERSONAL_COLUMNS.filter((column) => column !== 'name');

const cleared = (columns: readonly string[]) => columns.map((column) => `${column} = NULL`).join(', ');
const anyLeft = LEAD_PERSONAL_COLUMNS.map((column) => `${column} IS NOT NULL`).join(' OR ');

export async function eraseLeadRows(sql: SqlRunner, leadId: number, erasedAt: string): Promise<number> {
	const changed = await sql.run(
		`UPDATE leads SET ${cleared(LEAD_PERSONAL_COLUMNS)}, erased_at = coalesce(erased_at, ?) WHERE id = ? AND (erased_at IS NULL OR ${anyLeft})`,
		[erasedAt, leadId]
	);
	await sql.run(`UPDATE lead_repeats SET ${cleared(REPEAT_PERSONAL_COLUMNS)} WHERE lead_id = ?`, [leadId]);
	return changed;
}
