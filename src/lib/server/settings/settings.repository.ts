import type { z } from 'zod';
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

/** Writes the key only if it is absent; false when it already existed (of two racing callers one wins). */
export async function insertSettingOnce(db: Db | Tx, clock: Clock, key: string, value: string): Promise<boolean> {
	const updatedAt = clock.now().toISOString();
	const { count } = await db.setting.createMany({ data: [{ key, value, updatedAt }] }).catch(() => ({ count: 0 }));
	return count > 0;
}

export async function deleteSetting(db: Db | Tx, key: string): Promise<boolean> {
	const { count } = await db.setting.deleteMany({ where: { key } });
	return count > 0;
}

/** A setting's text as JSON of this shape; null when it is not JSON or not of that shape. */
export function parseJsonSetting<T>(raw: string, schema: z.ZodType<T>): T | null {
	let value: unknown;
	try {
		value = JSON.parse(raw);
	} catch {
		return null;
	}
	const parsed = schema.safeParse(value);
	return parsed.success ? parsed.data : null;
}

/** A JSON setting read through its schema; null when absent or unreadable (callers decide what that means). */
export async function readJsonSetting<T>(db: Db | Tx, key: string, schema: z.ZodType<T>): Promise<T | null> {
	const raw = await readSetting(db, key);
	return raw === null ? null : parseJsonSetting(raw, schema);
}
