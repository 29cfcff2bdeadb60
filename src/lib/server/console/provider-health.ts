import type { Db } from '../db/client.ts';
import { readModelCheck } from '../jobs/model-check-state.ts';
import { readQueuePause, type QueuePause } from '../jobs/queue-pause.ts';
import type { Clock } from '../time/clock.ts';

/**
 * How each image provider is doing, from its calls (`api_usage`): the last answer that worked and
 * the last that did not, and the errors of the last 15 minutes — plus the queue's pause and a
 * configured model the provider does not serve (the model check), which marks it down.
 */
export const RECENT_ERRORS_WINDOW_MS = 15 * 60_000;

export interface ProviderHealth {
	provider: string;
	lastOkAt: string | null;
	lastErrorAt: string | null;
	lastError: string | null;
	errorsRecent: number;
	callsRecent: number;
	/** Why the provider cannot serve at all (a missing model), when it cannot. */
	down: string | null;
}

/** The queue's pause as operators read it; one mapping from the queue's own shape. */
export interface PauseView {
	source: string;
	reason: string;
	since: string | null;
	until: string | null;
}

export interface ProvidersView {
	providers: ProviderHealth[];
	pause: PauseView | null;
}

export async function readProvidersView(db: Db, clock: Clock): Promise<ProvidersView> {
	const [providers, pause] = await Promise.all([readProviderHealth(db, clock), readQueuePause(db, clock)]);
	return { providers, pause: pause ? toPauseView(pause) : null };
}

/** The only place that maps the queue pause to what the console shows. */
function toPauseView(pause: QueuePause): PauseView {
	return { source: pause.source, reason: pause.reason, since: pause.since || null, until: pause.until ?? null };
}

export async function readProviderHealth(db: Db, clock: Clock): Promise<ProviderHealth[]> {
	const since = new Date(clock.now().getTime() - RECENT_ERRORS_WINDOW_MS).toISOString();
	const [names, modelCheck] = await Promise.all([
		db.apiUsage.findMany({ distinct: ['provider'], select: { provider: true } }),
		readModelCheck(db)
	]);
	const missing = modelCheck?.missing ?? [];
	const all = new Set([...names.map((n) => n.provider), ...missing.map((m) => m.provider)]);
	return Promise.all(
		[...all].sort().map(async (provider) => {
			const [lastOk, lastError, errorsRecent, callsRecent] = await Promise.all([
				db.apiUsage.findFirst({ where: { provider, ok: 1 }, orderBy: { ts: 'desc' }, select: { ts: true } }),
				db.apiUsage.findFirst({
					where: { provider, ok: 0 },
					orderBy: { ts: 'desc' },
					select: { ts: true, error: true }
				}),
				db.apiUsage.count({ where: { provider, ok: 0, ts: { gte: since } } }),
				db.apiUsage.count({ where: { provider, ts: { gte: since } } })
			]);
			const gone = missing.filter((m) => m.provider === provider);
			return {
				provider,
				lastOkAt: lastOk?.ts ?? null,
				lastErrorAt: lastError?.ts ?? null,
				lastError: lastError?.error?.slice(0, 300) ?? null,
				errorsRecent,
				callsRecent,
				down: gone.length ? gone.map((m) => `model "${m.model}" unknown — change ${m.setting}`).join('; ') : null
			};
		})
	);
}
