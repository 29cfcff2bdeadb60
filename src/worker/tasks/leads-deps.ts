import type { Config } from '../../lib/server/config/config.ts';
import type { Db } from '../../lib/server/db/client.ts';
import { leadsSettingsFrom } from '../../lib/server/leads/leads-config.ts';
import { settingsFromEnvironment, type RuntimeSettings } from '../../lib/server/settings/runtime-settings.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import { ChatCooldown } from '../../lib/server/telegram/flood-control.ts';
import type { LeadCardDeps } from '../../lib/server/leads/lead-card-edit-outbox.ts';
import { createOutboxApi } from '../../lib/server/telegram/outbox-api.ts';
import { paceThroughBudget, type SendPacing } from '../../lib/server/telegram/send-budget-api.ts';
import type { Clock } from '../../lib/server/time/clock.ts';

/** What every leads task takes: plain arguments, so tests pass a FakeClock and the emulator. */
export interface LeadsTaskDeps extends LeadCardDeps {
	/** The sales group; null = not configured (leads wait in the outbox). */
	chatId: bigint | null;
}

/** The leads tasks' deps from the worker's config: the outbox client (no auto-retry), the sales group, one cooldown. */
export function createLeadsTaskDeps(
	config: Config,
	db: Db,
	clock: Clock,
	logger: Logger,
	pacing: SendPacing
): LeadsTaskDeps {
	// The environment's sales group; the schedule passes the one in force to each pass (console Settings).
	const settings = leadsSettingsFrom(settingsFromEnvironment(config));
	const api = createOutboxApi(config.telegram);
	// Cards, pings, edits, reminders and the digest wait for their places (the group: one every 3 s).
	paceThroughBudget(api, pacing);
	return {
		db,
		clock,
		logger,
		api,
		budget: pacing.budget,
		chatId: settings.chatId,
		locale: settings.locale,
		cooldown: new ChatCooldown()
	};
}

/** The leads tasks' deps with the sales group and its language in force: a changed group gets the next new card. */
export async function leadsInForce(
	leads: LeadsTaskDeps,
	runtime: Pick<RuntimeSettings, 'read'>
): Promise<LeadsTaskDeps> {
	const now = leadsSettingsFrom(await runtime.read());
	return { ...leads, chatId: now.chatId, locale: now.locale };
}
