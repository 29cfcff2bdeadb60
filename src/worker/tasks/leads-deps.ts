import type { Config } from '../../lib/server/config/config.ts';
import type { Db } from '../../lib/server/db/client.ts';
import { readLeadsSettings } from '../../lib/server/leads/leads-config.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import { ChatCooldown } from '../../lib/server/telegram/flood-control.ts';
import type { LeadCardDeps } from '../../lib/server/telegram/lead-card-edit.ts';
import { createOutboxApi } from '../../lib/server/telegram/outbox-api.ts';
import { paceThroughBudget, type SendPacing } from '../../lib/server/telegram/send-budget-api.ts';
import type { Clock } from '../../lib/server/time/clock.ts';

/** What every leads task takes: plain arguments, so tests pass a FakeClock and the emulator. */
export interface LeadsTaskDeps extends LeadCardDeps {
	/** The sales group; null = not configured (leads wait in the outbox). */
	chatId: bigint | null;
}

/** The leads tasks' deps from the worker's config: the outbox client (no auto-retry), the sales group, one cooldown. */
export function createLeadsTaskDeps(config: Config, db: Db, clock: Clock, logger: Logger, pacing: SendPacing): LeadsTaskDeps {
	const settings = readLeadsSettings(config);
	if (settings.chatId === null) logger.warn('LEADS_CHAT_ID is not set: leads are stored but their cards wait in the outbox');
	const api = createOutboxApi(config.telegram);
	// Cards, pings, edits, reminders and the digest wait for their places (the group: one every 3 s).
	paceThroughBudget(api, pacing);
	return { db, clock, logger, api, chatId: settings.chatId, locale: settings.locale, cooldown: new ChatCooldown() };
}
