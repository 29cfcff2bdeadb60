import type { Config } from '../config/config.ts';
import type { Db } from '../db/client.ts';
import { SETTING_DEFS, SETTING_NAMES, type SettingGroup, type SettingName } from './runtime-setting-defs.ts';
import { effectiveSettings, type SettingOrigin } from './runtime-settings.ts';
import { readRuntimeRows } from './runtime-settings.repository.ts';

/** One field of the console's Settings page: its words, its value in text form and where it comes from. */
export interface SettingField {
	name: SettingName;
	group: SettingGroup;
	label: string;
	hint: string;
	env: string;
	choices: readonly string[] | null;
	text: string;
	origin: SettingOrigin;
	/** The environment's value, which "Reset" brings back. */
	envText: string;
	setBy: string | null;
	setAt: string | null;
}

/** Every setting as the owner sees it, read fresh (no cache: the page shows what was just saved). */
export async function readSettingFields(db: Db, config: Config): Promise<SettingField[]> {
	const settings = effectiveSettings(config, await readRuntimeRows(db));
	return SETTING_NAMES.map((name) => {
		const def = SETTING_DEFS[name];
		const now = settings[name];
		return {
			name,
			group: def.group,
			label: def.label,
			hint: def.hint,
			env: def.env,
			choices: 'choices' in def ? def.choices : null,
			text: now.text,
			origin: now.origin,
			envText: def.fromEnv(config),
			setBy: now.setBy ?? null,
			setAt: now.setAt ?? null
		};
	});
}
