import type { Config } from '../../lib/server/config/config.ts';
import {
	pauseForMissingModels,
	pauseForProviderAccess,
	recordModelsFound,
	type ModelPauseDeps
} from '../../lib/server/jobs/model-pause.ts';
import { checkConfiguredModels, configuredModels } from '../../lib/server/providers/model-check.ts';

export type ModelCheckOutcome = 'none' | 'ok' | 'missing' | 'unreachable' | 'denied';

/**
 * One model check: with gemini or openai configured, asks for each model. Missing ones pause the
 * queue (config); so does a provider that refuses our access (key, permission, location — the
 * same finding a drawing call makes mid-event); all found lifts a config pause. An unreachable
 * provider decides nothing — the last finding stands until the next check.
 */
export async function runModelCheck(config: Config, deps: ModelPauseDeps): Promise<ModelCheckOutcome> {
	if (configuredModels(config).length === 0) return 'none';
	const verdicts = await checkConfiguredModels(config);
	const missing = verdicts.filter((v) => v.answer === 'missing');
	if (missing.length) {
		await pauseForMissingModels(deps, missing, true);
		return 'missing';
	}
	const denied = verdicts.find((v) => v.answer === 'denied');
	if (denied) {
		await pauseForProviderAccess(deps, denied.detail ?? `${denied.provider} refused our access`);
		return 'denied';
	}
	const unreachable = verdicts.filter((v) => v.answer === 'unreachable');
	if (unreachable.length) {
		deps.logger.warn(
			{ unreachable: unreachable.map((v) => ({ setting: v.setting, detail: v.detail })) },
			'model check could not reach the provider'
		);
		return 'unreachable';
	}
	await recordModelsFound(deps);
	return 'ok';
}
