import type { Db, Tx } from '../client.ts';
import { Prisma } from '../generated/client.ts';
import { dialectOf } from './dialect.ts';

/** Which row of an outbox table a claim takes: the first due one in `orderBy` order. */
export interface RowToClaim {
	/** The table and the alias `due` and `orderBy` use, e.g. `guest_notices n`. */
	table: string;
	alias: string;
	due: Prisma.Sql;
	orderBy: string;
	/** The row's key column when it is not `id` (lead_card_edits: `lead_id`). */
	idColumn?: string;
}

/**
 * The id of the row a claim takes, inside the claim's transaction; null when none is due. On
 * PostgreSQL the row stays locked until the claim commits and rows other claims hold are passed
 * over, so two workers never take the same row; on SQLite the transaction's write lock does that.
 * Raw SQL because Prisma's findFirst cannot lock the row it finds. Table, alias and order are
 * fixed strings of the caller, never input.
 */
export async function pickRowToClaim(tx: Tx, row: RowToClaim): Promise<number | null> {
	const lock = dialectOf(tx).claimLock(row.alias);
	const rows = await tx.$queryRaw<{ id: number | bigint }[]>`
		SELECT ${Prisma.raw(`${row.alias}.${row.idColumn ?? 'id'}`)} AS id FROM ${Prisma.raw(`${row.table} ${row.alias}`)}
		WHERE ${row.due} ORDER BY ${Prisma.raw(row.orderBy)} LIMIT 1 ${Prisma.raw(lock)}`;
	const id = rows[0]?.id;
	return id === undefined ? null : Number(id);
}

/**
 * An outbox claim in one transaction: picks the first due row (pickRowToClaim), pushes its lease
 * column (`next_attempt_at`, `next_publish_at`, …) to `leaseUntil` and reads it back with `read`
 * (the row as claimed, lease included); null when none is due.
 */
export async function claimRowWithLease<T>(
	db: Db,
	row: RowToClaim & { leaseColumn: string; leaseUntil: string },
	read: (tx: Tx, id: number) => Promise<T | null>
): Promise<T | null> {
	return db.$transaction(async (tx) => {
		const id = await pickRowToClaim(tx, row);
		if (id === null) return null;
		await tx.$executeRaw`UPDATE ${Prisma.raw(row.table)} SET ${Prisma.raw(row.leaseColumn)} = ${row.leaseUntil} WHERE ${Prisma.raw(row.idColumn ?? 'id')} = ${id}`;
		return read(tx, id);
	});
}

/**
 * Locks the rows of `table` whose `column` is one of `keys` for the rest of the transaction, so a
 * read that decides a write sees no other transaction's change before the write. SQLite needs no
 * statement: BEGIN IMMEDIATE already holds the one write lock.
 */
export async function lockRows(
	tx: Tx,
	table: string,
	column: string,
	keys: readonly (string | number | bigint)[]
): Promise<void> {
	const lock = dialectOf(tx).lockRead(table);
	if (lock === '' || keys.length === 0) return;
	await tx.$queryRaw`SELECT 1 FROM ${Prisma.raw(table)} WHERE ${Prisma.raw(column)} IN (${Prisma.join([...keys])})
		ORDER BY ${Prisma.raw(column)} ${Prisma.raw(lock)}`; // one order everywhere: two lockers never deadlock
}

/**
 * Locks each of `keys` (texts naming what the transaction is about to decide, e.g. a contact's
 * leads) for the rest of the transaction: the lock for a decision on rows that may not exist yet
 * — "is there already a lead of this contact?" — where lockRows has no row to lock. Taken in one
 * sorted order, so two lockers of overlapping keys never deadlock. SQLite needs none.
 */
export async function lockKeys(tx: Tx, keys: readonly string[]): Promise<void> {
	const { lockKeySql, numberParams } = dialectOf(tx);
	if (lockKeySql === null) return;
	for (const key of [...new Set(keys)].sort()) await tx.$queryRawUnsafe(numberParams(lockKeySql), key);
}
