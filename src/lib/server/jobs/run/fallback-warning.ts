import { ADMIN_ALERTS } from '../../../i18n/admin-alerts.ts';
import { alertAdmins } from '../../telegram/admin-alerts.ts';
import type { FallbackEvent } from '../pipeline/pipeline-context.ts';
import { pacificQuotaDay } from '../../spend/provider-quota-day.ts';
import type { QueueDeps } from './queue-deps.ts';

/**
 * Operators hear once per provider, failure and quota day (Pacific) that the fallback provider
 * took over — every job tries the main provider first, so without this they would hear it per job.
 * `settings.fallback_warned:<provider>:<failure>:<day>` is created with a unique key first, so
 * two slots switching at once can never both send it.
 */
export async function warnAboutFallback(deps: QueueDeps, event: FallbackEvent): Promise<void> {
	const now = deps.clock.now();
	const key = `fallback_warned:${event.from}:${event.failure}:${pacificQuotaDay(now)}`;
	const { count } = await deps.db.setting
		.createMany({ data: [{ key, value: event.to, updatedAt: now.toISOString() }] })
		.catch(() => ({ count: 0 }));
	if (count === 0) return;
	await alertAdmins(
		deps.alerts,
		deps.settings.adminIds,
		ADMIN_ALERTS.fallback(event.from, event.to, event.failure, event.message)
	);
}
