import type { SqlRunner } from './sql-runner.ts';

/**
 * Re-applies a lead erasure on a restored backup (seed 000 erasure rules): contact fields, comment
 * and ip_hash become NULL in the lead and its repeats, erased_at is set; the row, its status and
 * history stay. The leads feature owns erasure in the live database; this is the same effect,
 * written against a file no process has opened yet. Returns 1 when the lead needed erasing.
 */
export async function eraseLeadRows(sql: SqlRunner, leadId: number, erasedAt: string): Promise<number> {
	const changed = await sql.run(
		`UPDATE leads SET name = NULL, telegram = NULL, phone = NULL, comment = NULL, ip_hash = NULL, erased_at = coalesce(erased_at, ?)
		 WHERE id = ? AND (erased_at IS NULL OR name IS NOT NULL OR telegram IS NOT NULL OR phone IS NOT NULL OR comment IS NOT NULL OR ip_hash IS NOT NULL)`,
		[erasedAt, leadId]
	);
	await sql.run(`UPDATE lead_repeats SET telegram = NULL, phone = NULL, comment = NULL, ip_hash = NULL WHERE lead_id = ?`, [leadId]);
	return changed;
}
