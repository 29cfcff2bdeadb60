import { recordAudit, type Actor } from '../audit/audit-log.ts';
import type { Config } from '../config/config.ts';
import type { Db, Tx } from '../db/client.ts';
import { hasSecret } from './console-secrets.ts';
import { lockKeys } from '../db/dialect/row-locks.ts';
import { DomainError } from '../errors/domain-error.ts';
import type { Clock } from '../time/clock.ts';
import { readSettingText, SETTING_DEFS, type SettingName } from './runtime-setting-defs.ts';
import { effectiveSettings } from './runtime-settings.ts';
import { deleteRuntimeRow, readRuntimeRows, writeRuntimeRow } from './runtime-settings.repository.ts';

export interface SettingChangeDeps {
	db: Db;
	clock: Clock;
	config: Config;
}

export type SettingChangeOutcome = { changed: true; before: string; after: string } | { changed: false; value: string };

/**
 * The owner sets a setting on the console: the text is read by the setting's rule (a refusal
 * carries the rule's sentence), then the row and its audit row (the value before and after) are
 * written in one transaction. Setting the value already in force writes nothing.
 */
export async function changeSetting(
	deps: SettingChangeDeps,
	actor: Actor,
	name: SettingName,
	text: string
): Promise<SettingChangeOutcome> {
	const def = SETTING_DEFS[name];
	const normalised = text.trim();
	const read = readSettingText(name, normalised);
	if (!read.ok) throw new DomainError({ code: 'SettingRefused', label: def.label, problem: read.problem });
	return deps.db.$transaction(async (tx) => {
		// The value before decides the audit row and "unchanged": two owners saving at once go one after the other.
		await lockKeys(tx, [`setting:${name}`]);
		const current = effectiveSettings(deps.config, await readRuntimeRows(tx));
		const problem = await providerProblem(tx, deps.config, name, normalised);
		if (problem) throw new DomainError({ code: 'SettingRefused', label: def.label, problem });
		const before = current[name];
		if (before.origin === 'console' && before.text === normalised)
			return { changed: false as const, value: normalised };
		await writeRuntimeRow(tx, deps.clock, name, {
			text: normalised,
			by: actor.name,
			at: deps.clock.now().toISOString()
		});
		await recordAudit(tx, deps.clock, actor, {
			action: 'setting_change',
			details: { setting: name, before: before.text, beforeFrom: before.origin, after: normalised }
		});
		return { changed: true as const, before: before.text, after: normalised };
	});
}

/** Back to the environment's value: the console's row goes, with an audit row; nothing set = nothing to do. */
export async function resetSetting(
	deps: SettingChangeDeps,
	actor: Actor,
	name: SettingName
): Promise<{ reset: boolean; value: string }> {
	const envText = SETTING_DEFS[name].fromEnv(deps.config);
	return deps.db.$transaction(async (tx) => {
		await lockKeys(tx, [`setting:${name}`]);
		const before = effectiveSettings(deps.config, await readRuntimeRows(tx))[name];
		if (!(await deleteRuntimeRow(tx, name))) return { reset: false, value: envText };
		await recordAudit(tx, deps.clock, actor, {
			action: 'setting_reset',
			details: { setting: name, before: before.text, after: envText, afterFrom: 'environment' }
		});
		return { reset: true, value: envText };
	});
}

/** A provider needs its API key before it can be chosen: without one every job would fail. */
async function providerProblem(tx: Tx, config: Config, name: SettingName, text: string): Promise<string | null> {
	if (name !== 'imageProvider') return null;
	if (text === 'gemini' && !(await hasSecret(tx, config, 'geminiApiKey')))
		return 'Gemini needs an API key: set the Gemini API key below (or GEMINI_API_KEY) first, or keep the current provider.';
	if (text === 'openai' && !(await hasSecret(tx, config, 'openaiApiKey')))
		return 'OpenAI needs an API key: set the OpenAI API key below (or OPENAI_API_KEY) first, or keep the current provider.';
	return null;
}
