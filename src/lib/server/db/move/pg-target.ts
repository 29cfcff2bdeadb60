import type pg from 'pg';

/** Rows the PostgreSQL migrations insert themselves (the default event and its catalogue). */
export const SEED_ROWS: Record<string, number> = { events: 1, catalogue_versions: 1, catalogue_drafts: 1 };

export async function targetColumns(client: pg.Client, table: string): Promise<Map<string, string>> {
	const result = await client.query<{ column_name: string; data_type: string }>(
		`SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`,
		[table]
	);
	return new Map(result.rows.map((row) => [row.column_name, row.data_type]));
}

export async function targetCount(client: pg.Client, table: string): Promise<number> {
	const result = await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${table}"`);
	return Number(result.rows[0]!.n);
}

/** Tables ordered so that a table comes after every table its foreign keys point to. */
export async function foreignKeyOrder(client: pg.Client, tables: string[]): Promise<string[]> {
	const result = await client.query<{ child: string; parent: string }>(
		`SELECT tc.table_name AS child, ccu.table_name AS parent FROM information_schema.table_constraints tc
		 JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name AND ccu.table_schema = tc.table_schema
		 WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = current_schema()`
	);
	const ordered: string[] = [];
	const visit = (table: string, path: Set<string>) => {
		if (ordered.includes(table) || path.has(table)) return;
		path.add(table);
		for (const fk of result.rows) if (fk.child === table && fk.parent !== table) visit(fk.parent, path);
		if (tables.includes(table)) ordered.push(table);
	};
	for (const table of tables) visit(table, new Set());
	return ordered;
}

/** SQLite has no booleans (0/1) and hands integers over as BigInt; PostgreSQL wants its own types. */
export function toPg(value: unknown, dataType: string): unknown {
	if (value === null || value === undefined) return null;
	if (dataType === 'boolean') return Number(value) !== 0;
	if (typeof value === 'bigint') return value.toString();
	return value;
}

/** Serial columns continue after the highest copied id, so new rows get fresh ids. */
export async function resetSequences(client: pg.Client, table: string): Promise<void> {
	const serials = await client.query<{ column_name: string }>(
		`SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND column_default LIKE 'nextval(%'`,
		[table]
	);
	for (const { column_name: column } of serials.rows) {
		await client.query(
			`SELECT setval(pg_get_serial_sequence($1, $2), COALESCE((SELECT max("${column}") FROM "${table}"), 0) + 1, false)`,
			[table, column]
		);
	}
}
