import { ADMIN_ALERTS } from '../../i18n/admin-alerts.ts';
import { modelMissingSentence, type ConfiguredModel } from '../providers/configured-model.ts';
import { endMaintenance, readMaintenance, startMaintenance } from '../settings/maintenance.ts';
import { alertAdmins, type NoticeDeps } from '../telegram/admin-alerts.ts';
import type { Clock } from '../time/clock.ts';
import { readModelCheck, writeModelCheck } from './model-check-state.ts';

/**
 * What the queue does about configured models the provider does not serve (the finding itself is
 * model-check-state.ts). A missing model pauses the queue (maintenance, source `config`) — every job
 * would fail on it — unless an operator's or a billing pause already holds it; admins hear once per
 * set of missing models. When the check finds every model again, a `config` pause is lifted by the
 * worker: the fix is a setting and a restart, and the check at start is what sees it.
 */
export interface ModelPauseDeps extends NoticeDeps {
	clock: Clock;
	adminIds: readonly bigint[];
}

/**
 * Pauses the queue for these missing models; true when admins were told (a new finding). `complete`:
 * the list is a whole check's answer and replaces the last one; a call's 404 adds to it.
 */
export async function pauseForMissingModels(
	deps: ModelPauseDeps,
	missing: ConfiguredModel[],
	complete: boolean
): Promise<boolean> {
	const { db, clock, logger } = deps;
	const previous = await readModelCheck(db);
	const known = new Set((previous?.missing ?? []).map(keyOf));
	const kept = complete ? [] : (previous?.missing ?? []);
	const all = [...kept, ...missing.filter((m) => complete || !known.has(keyOf(m)))].map(
		({ provider, setting, model }) => ({ provider, setting, model })
	);
	await writeModelCheck(db, clock, all);
	const reason = all.map(modelMissingSentence).join('; ');
	const maintenance = await readMaintenance(db);
	if (!maintenance || (maintenance.source === 'config' && maintenance.reason !== reason.slice(0, 500)))
		await startMaintenance(db, clock, 'config', reason);
	const isNew = all.some((m) => !known.has(keyOf(m)));
	logger.error(
		{ missing: all, paused: !maintenance || maintenance.source === 'config' },
		'configured model unknown to the provider; queue paused'
	);
	if (isNew) await alertAdmins(deps, deps.adminIds, ADMIN_ALERTS.modelMissing(reason));
	return isNew;
}

/**
 * The provider refuses our access (a key it will not take, a project without permission, a region
 * it does not serve): every call would fail until an operator fixes a setting, so the queue pauses
 * (maintenance, source config — lifted like a missing model's pause, when the model check passes
 * again, or by Resume). An operator's or a billing pause already in place is left as it is. Admins
 * hear once per reason; true when they were told.
 */
export async function pauseForProviderAccess(deps: ModelPauseDeps, reason: string): Promise<boolean> {
	const { db, clock, logger } = deps;
	const maintenance = await readMaintenance(db);
	const text = reason.slice(0, 500);
	if (maintenance && (maintenance.source !== 'config' || maintenance.reason === text)) return false;
	await startMaintenance(db, clock, 'config', text);
	logger.error({ reason: text }, 'the image provider refuses our access; queue paused');
	await alertAdmins(deps, deps.adminIds, ADMIN_ALERTS.providerAccess(text));
	return true;
}

/** Every configured model was found: the finding is cleared and a config pause lifted. */
export async function recordModelsFound(deps: ModelPauseDeps): Promise<boolean> {
	const { db, clock, logger } = deps;
	await writeModelCheck(db, clock, []);
	const maintenance = await readMaintenance(db);
	if (maintenance?.source !== 'config') return false;
	await endMaintenance(db);
	logger.info('configured models found again; config pause lifted');
	await alertAdmins(deps, deps.adminIds, ADMIN_ALERTS.modelsFound());
	return true;
}

function keyOf(model: ConfiguredModel): string {
	return `${model.setting}=${model.model}`;
}
