import { z } from 'zod';
import type { Db } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';
import { deleteSetting, readJsonSetting, writeSetting } from './settings.repository.ts';

/**
 * `settings.provider_change_refused` = {at, sentence}: the worker's answer to an image provider or
 * model set on the console that the provider did not accept (an unknown model id). The Settings
 * page shows the sentence; the next accepted change removes it. Kept apart from the worker's
 * provider code so the web reads it without loading a provider client.
 */
const KEY = 'provider_change_refused';
const refusalSchema = z.object({ at: z.string(), sentence: z.string() });
export type ProviderRefusal = z.infer<typeof refusalSchema>;

export function readProviderRefusal(db: Db): Promise<ProviderRefusal | null> {
	return readJsonSetting(db, KEY, refusalSchema);
}

export async function recordProviderRefusal(db: Db, clock: Clock, sentence: string): Promise<void> {
	await writeSetting(
		db,
		clock,
		KEY,
		JSON.stringify({ at: clock.now().toISOString(), sentence } satisfies ProviderRefusal)
	);
}

export async function clearProviderRefusal(db: Db): Promise<void> {
	await deleteSetting(db, KEY);
}
