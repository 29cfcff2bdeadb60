import { ADMIN_ALERTS } from '../../lib/i18n/admin-alerts.ts';
import { pacificDayStart, pacificQuotaDay } from '../../lib/server/spend/provider-quota-day.ts';
import { insertSettingOnce, readSetting } from '../../lib/server/settings/settings.repository.ts';
import { countImageRequestsSince } from '../../lib/server/spend/usage-recorder.ts';
import { alertAdmins, type NoticeDeps } from '../../lib/server/telegram/admin-alerts.ts';
import type { Clock } from '../../lib/server/time/clock.ts';

/**
 * The daily image-request counter: once today's image requests to paid providers (quota day =
 * Pacific time) pass RPD_WARN_THRESHOLD, admins get one warning. `settings.rpd_warned:<date>` is
 * created first with a unique key, so two passes (or two processes) can never both warn.
 */
export interface RpdDeps extends NoticeDeps {
	clock: Clock;
	threshold: number;
	adminIds: readonly bigint[];
}

export async function warnAdminsAboutDailyRequests(deps: RpdDeps): Promise<boolean> {
	const now = deps.clock.now();
	const day = pacificQuotaDay(now);
	const key = `rpd_warned:${day}`;
	if ((await readSetting(deps.db, key)) !== null) return false;
	const count = await countImageRequestsSince(deps.db, pacificDayStart(now).toISOString());
	if (count < deps.threshold) return false;
	if (!(await insertSettingOnce(deps.db, deps.clock, key, String(count)))) return false;
	await alertAdmins(deps, deps.adminIds, ADMIN_ALERTS.rpd(day, count, deps.threshold));
	return true;
}
