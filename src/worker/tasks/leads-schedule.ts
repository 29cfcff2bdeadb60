import type { Config } from '../../lib/server/config/config.ts';
import type { Db } from '../../lib/server/db/client.ts';
import { readLeadsSettings } from '../../lib/server/leads/leads-config.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import { ChatCooldown } from '../../lib/server/telegram/flood-control.ts';
import { createOutboxApi } from '../../lib/server/telegram/outbox-api.ts';
import { paceThroughBudget, type SendPacing } from '../../lib/server/telegram/send-budget-api.ts';
import { HOUR, MINUTE, SECOND, type Clock } from '../../lib/server/time/clock.ts';
import type { Scheduler } from '../scheduler.ts';
import { applyPendingCardEdits } from './leads-cards.ts';
import type { LeadsTaskDeps } from './leads-deps.ts';
import { postDailyDigest } from './leads-digest.ts';
import { publishPendingLeads } from './leads-publish.ts';
import { remindAboutIdleLeads } from './leads-reminders.ts';
import { notifyPendingRepeats } from './leads-repeats.ts';
import { eraseExpiredLeadData } from './leads-retention.ts';

/** The leads side of the worker: outboxes poll a cheap indexed query each second. */
export function createLeadsTaskDeps(config: Config, db: Db, clock: Clock, logger: Logger, pacing?: SendPacing): LeadsTaskDeps {
	const settings = readLeadsSettings(config);
	if (settings.chatId === null) logger.warn('LEADS_CHAT_ID is not set: leads are stored but their cards wait in the outbox');
	const api = createOutboxApi(config.telegram);
	// Cards, pings, edits, reminders and the digest wait for their places (the group: one every 3 s).
	if (pacing) paceThroughBudget(api, pacing);
	return { db, clock, logger, api, chatId: settings.chatId, locale: settings.locale, cooldown: new ChatCooldown() };
}

/** The outboxes run in every worker (their rows are claimed); reminders, digest and retention once per period. */
export function scheduleLeadsTasks(scheduler: Scheduler, deps: LeadsTaskDeps, isStopping: () => boolean): void {
	scheduler.add({ name: 'leads-publish', everyMs: SECOND, runAtStart: true, run: async () => void (await publishPendingLeads(deps, isStopping)) });
	scheduler.add({ name: 'leads-repeats', everyMs: 2 * SECOND, run: async () => void (await notifyPendingRepeats(deps)) });
	scheduler.add({ name: 'leads-card-edits', everyMs: 2 * SECOND, run: async () => void (await applyPendingCardEdits(deps)) });
	scheduler.add({ name: 'leads-reminders', everyMs: MINUTE, oncePerPeriod: true, run: async () => void (await remindAboutIdleLeads(deps)) });
	scheduler.add({ name: 'leads-digest', everyMs: MINUTE, runAtStart: true, oncePerPeriod: true, run: async () => void (await postDailyDigest(deps)) });
	scheduler.add({ name: 'leads-retention', everyMs: HOUR, runAtStart: true, oncePerPeriod: true, run: async () => void (await eraseExpiredLeadData(deps)) });
}
