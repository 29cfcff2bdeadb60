import { z } from 'zod';
import type { Db, Tx } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';
import { deleteSetting, parseJsonSetting, readSetting, writeSetting } from './settings.repository.ts';

/**
 * The console's runtime settings in the `settings` table: key `runtime.<name>`, value JSON
 * {text, by, at} — the setting's text form, the operator who set it and when.
 */
const PREFIX = 'runtime.';

const rowSchema = z.object({ text: z.string(), by: z.string(), at: z.string() });
export type RuntimeRow = z.infer<typeof rowSchema>;

export async function readRuntimeRows(db: Db | Tx): Promise<Map<string, RuntimeRow>> {
	const rows = await db.setting.findMany({ where: { key: { startsWith: PREFIX } } });
	const found = new Map<string, RuntimeRow>();
	for (const row of rows) {
		const parsed = parseJsonSetting(row.value, rowSchema);
		if (parsed) found.set(row.key.slice(PREFIX.length), parsed);
	}
	return found;
}

export async function readRuntimeRow(db: Db | Tx, name: string): Promise<RuntimeRow | null> {
	const raw = await readSetting(db, PREFIX + name);
	return raw === null ? null : parseJsonSetting(raw, rowSchema);
}

export async function writeRuntimeRow(db: Db | Tx, clock: Clock, name: string, row: RuntimeRow): Promise<void> {
	await writeSetting(db, clock, PREFIX + name, JSON.stringify(row));
}

export function deleteRuntimeRow(db: Db | Tx, name: string): Promise<boolean> {
	return deleteSetting(db, PREFIX + name);
}
