import type Database from 'better-sqlite3';

/** Tables with their columns and index names: what "the expected schema" means when we verify. */
export type SchemaShape = Map<string, { columns: string[]; indexes: string[] }>;

export function describeSchema(conn: Database.Database): SchemaShape {
	const tables = conn
		.prepare(
			`SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations' ORDER BY name`
		)
		.pluck()
		.all() as string[];
	const shape: SchemaShape = new Map();
	for (const table of tables) {
		const columns = (conn.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[]).sort();
		const indexes = (conn.prepare(`SELECT name FROM pragma_index_list(?)`).pluck().all(table) as string[]).sort();
		shape.set(table, { columns, indexes });
	}
	return shape;
}

/** Human-readable differences; empty when `actual` has exactly the expected tables, columns and indexes. */
export function compareSchemas(expected: SchemaShape, actual: SchemaShape): string[] {
	const problems: string[] = [];
	for (const [table, want] of expected) {
		const got = actual.get(table);
		if (!got) {
			problems.push(`table ${table} is missing`);
			continue;
		}
		for (const column of want.columns)
			if (!got.columns.includes(column)) problems.push(`column ${table}.${column} is missing`);
		for (const index of want.indexes)
			if (!got.indexes.includes(index)) problems.push(`index ${index} on ${table} is missing`);
	}
	for (const table of actual.keys()) if (!expected.has(table)) problems.push(`unexpected table ${table}`);
	return problems;
}

export function countRows(conn: Database.Database): Map<string, number> {
	const counts = new Map<string, number>();
	for (const table of describeSchema(conn).keys()) {
		counts.set(table, Number(conn.prepare(`SELECT count(*) FROM "${table}"`).pluck().get()));
	}
	return counts;
}

export function integrityCheck(conn: Database.Database): string {
	const rows = conn.prepare('PRAGMA integrity_check').pluck().all() as string[];
	return rows.join('; ');
}
