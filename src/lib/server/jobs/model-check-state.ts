import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { readJsonSetting, writeSetting } from '../settings/settings.repository.ts';
import type { Clock } from '../time/clock.ts';
import type { ConfiguredModel } from '../providers/configured-model.ts';

/**
 * The model check's last finding, `settings.model_check` = {at, missing}: the console shows the
 * provider as down while `missing` is not empty. Kept apart from the pause it causes
 * (model-pause.ts sends admin alerts through Telegram), so the web process reads it without
 * loading the bot's client.
 */
const KEY = 'model_check';

const modelSchema = z.object({
	provider: z.enum(['gemini', 'openai']),
	setting: z.enum(['GEMINI_IMAGE_MODEL', 'GEMINI_VISION_MODEL', 'OPENAI_IMAGE_MODEL']),
	model: z.string()
});
export const modelCheckSchema = z.object({ at: z.string(), missing: z.array(modelSchema) });
export type ModelCheckState = z.infer<typeof modelCheckSchema>;

export function readModelCheck(db: Db): Promise<ModelCheckState | null> {
	return readJsonSetting(db, KEY, modelCheckSchema);
}

export async function writeModelCheck(db: Db, clock: Clock, missing: ConfiguredModel[]): Promise<void> {
	await writeSetting(
		db,
		clock,
		KEY,
		JSON.stringify({ at: clock.now().toISOString(), missing } satisfies ModelCheckState)
	);
}
