import type { Config } from '../config/config.ts';
import type { Db } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';
import {
	readSettingText,
	SETTING_DEFS,
	SETTING_NAMES,
	type SettingName,
	type SettingValues
} from './runtime-setting-defs.ts';
import { readRuntimeRows, type RuntimeRow } from './runtime-settings.repository.ts';

/** How long a process trusts what it read: a change on the console reaches every process within this. */
export const RUNTIME_SETTINGS_TTL_MS = 5_000;

export type SettingOrigin = 'environment' | 'console';

export interface EffectiveSetting<K extends SettingName = SettingName> {
	name: K;
	value: SettingValues[K];
	text: string;
	origin: SettingOrigin;
	/** Who set it on the console and when (absent for the environment's default). */
	setBy?: string;
	setAt?: string;
}

export type EffectiveSettings = { [K in SettingName]: EffectiveSetting<K> };

/**
 * The settings in force, for any process: the console's value where one is set, else the
 * environment's. Read through a short cache (RUNTIME_SETTINGS_TTL_MS on the injected clock), so the
 * hot paths (a claim, a button press) do not query each time and a change is still picked up
 * without a restart. A stored text the rule no longer accepts falls back to the environment's value.
 */
export class RuntimeSettings {
	readonly #db: Db;
	readonly #clock: Clock;
	readonly #config: Config;
	#cached: { at: number; settings: EffectiveSettings } | undefined;

	constructor(deps: { db: Db; clock: Clock; config: Config }) {
		this.#db = deps.db;
		this.#clock = deps.clock;
		this.#config = deps.config;
	}

	/** The values in force (each setting's parsed value). */
	async read(): Promise<SettingValues> {
		const settings = await this.readWithOrigin();
		return Object.fromEntries(SETTING_NAMES.map((name) => [name, settings[name].value])) as SettingValues;
	}

	/** The values in force with where each comes from (the console's Settings page). */
	async readWithOrigin(): Promise<EffectiveSettings> {
		const now = this.#clock.now().getTime();
		if (this.#cached && now - this.#cached.at < RUNTIME_SETTINGS_TTL_MS && now >= this.#cached.at)
			return this.#cached.settings;
		const settings = effectiveSettings(this.#config, await readRuntimeRows(this.#db));
		this.#cached = { at: now, settings };
		return settings;
	}

	/** The sales group as last read, without a query (for synchronous checks; the leads tasks read every second). */
	lastSalesGroup(): bigint | null | undefined {
		return this.#cached?.settings.salesGroupChatId.value;
	}

	/** Drops the cache: this process's own change is seen at once (others within the TTL). */
	forget(): void {
		this.#cached = undefined;
	}
}

export function effectiveSettings(config: Config, rows: Map<string, RuntimeRow>): EffectiveSettings {
	const entries = SETTING_NAMES.map((name) => [name, effectiveSetting(config, name, rows.get(name))]);
	return Object.fromEntries(entries) as EffectiveSettings;
}

function effectiveSetting<K extends SettingName>(
	config: Config,
	name: K,
	row: RuntimeRow | undefined
): EffectiveSetting<K> {
	if (row) {
		const read = readSettingText(name, row.text);
		if (read.ok) return { name, value: read.value, text: row.text, origin: 'console', setBy: row.by, setAt: row.at };
	}
	const text = SETTING_DEFS[name].fromEnv(config);
	const read = readSettingText(name, text);
	// The environment was validated at start (env.schema.ts); a default the rule refuses is a bug here.
	if (!read.ok)
		throw new Error(`${SETTING_DEFS[name].env}'s value "${text}" does not pass the ${name} rule: ${read.problem}`);
	return { name, value: read.value, text, origin: 'environment' };
}

/** The values the environment alone gives (nothing set on the console): tests and first defaults. */
export function settingsFromEnvironment(config: Config): SettingValues {
	const settings = effectiveSettings(config, new Map());
	return Object.fromEntries(SETTING_NAMES.map((name) => [name, settings[name].value])) as SettingValues;
}
