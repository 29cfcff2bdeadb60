import type { Db, Tx } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';

/** The `settings` key-value table shared by both processes (docs/data-model.md lists the keys). */
export async function readSetting(db: Db | Tx, key: string): Promise<string | null> {
	const row = await db.setting.findUnique({ where: { key } });
	return row?.value ?? null;
}

export async function writeSetting(db: Db | Tx, clock: Clock, key: string, value: string): Promise<void> {
	const updatedAt = clock.now().toISOString();
	await db.setting.upsert({ where: { key }, create: { key, value, updatedAt }, update: { value, updatedAt } });
}

export async function deleteSetting(db: Db | Tx, key: string): Promise<boolean> {
	const { count } = await db.setting.deleteMany({ where: { key } });
	return count > 0;
}
