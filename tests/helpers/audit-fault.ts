import type { Db } from '../../src/lib/server/db/client.ts';
import { dialectOf } from '../../src/lib/server/db/dialect/dialect.ts';

/**
 * Makes the database refuse audit_log rows of the given actions, as a failure between a change and
 * its audit row would: the insert fails inside whatever transaction wrote it. Returns the undo.
 */
export async function failAuditOf(db: Db, actions: string[]): Promise<() => Promise<void>> {
	const list = actions.map((action) => `'${action.replace(/'/g, "''")}'`).join(', ');
	if (dialectOf(db).name === 'postgresql') {
		await db.$executeRawUnsafe(
			`CREATE OR REPLACE FUNCTION test_fail_audit() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'audit insert failed (injected)'; END $$ LANGUAGE plpgsql`
		);
		await db.$executeRawUnsafe(
			`CREATE TRIGGER test_fail_audit BEFORE INSERT ON audit_log FOR EACH ROW WHEN (NEW.action IN (${list})) EXECUTE FUNCTION test_fail_audit()`
		);
		return async () => void (await db.$executeRawUnsafe('DROP TRIGGER test_fail_audit ON audit_log'));
	}
	await db.$executeRawUnsafe(
		`CREATE TRIGGER test_fail_audit BEFORE INSERT ON audit_log WHEN NEW.action IN (${list}) BEGIN SELECT RAISE(ABORT, 'audit insert failed (injected)'); END`
	);
	return async () => void (await db.$executeRawUnsafe('DROP TRIGGER test_fail_audit'));
}
