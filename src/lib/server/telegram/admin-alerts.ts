import type { Db } from '../db/client.ts';
import type { Logger } from '../log/logger.ts';
import { runOutboxPass, type OutboxSender } from '../outbox/outbox-driver.ts';
import { SECOND, type Clock } from '../time/clock.ts';
import type { TelegramApi } from './api.ts';
import {
	claimAdminAlert,
	endAlert,
	postponeAlert,
	queueAdminAlerts,
	recordAlertSent,
	type ClaimedAlert
} from './admin-alerts.repository.ts';
import type { ChatCooldown } from './flood-control.ts';
import type { SendPacing } from './send-budget-api.ts';

/** What alerting the admins takes. */
export interface NoticeDeps {
	db: Db;
	clock: Clock;
	/** A client without the budget's transformer or auto-retry (the notices' own): the outbox paces and retries. */
	api: Pick<TelegramApi, 'sendMessage'>;
	logger: Logger;
	/** The bot's one send budget: an alert is a message like any other (guest lane). */
	pacing: SendPacing;
	/** This worker's per-chat flood control (the guest notices'): a 429 on an admin's chat keeps it quiet. */
	cooldown: ChatCooldown;
}

/**
 * How long a claimed alert is left alone: well past one call's 30 s timeout (outbox-api.ts's lease,
 * not imported from there: that module loads grammY, and this one stays free of it).
 */
const ALERT_LEASE_MS = 2 * 60 * SECOND;

/** About an hour of Telegram trouble (2 s doubling to 2 min, then every 2 min) before an alert is given up. */
export const MAX_ALERT_ATTEMPTS = 35;

/**
 * Alerts every admin: one row each in admin_alerts (durable: a 429, a 5xx or a worker that dies
 * does not lose it), then sent at once through the outbox driver. A row that fails stays queued on
 * the one failure ladder and the `admin-alerts` task of any worker sends it later.
 */
export async function alertAdmins(deps: NoticeDeps, adminIds: readonly bigint[], text: string): Promise<void> {
	const ids = await queueAdminAlerts(deps.db, deps.clock.now(), adminIds, text);
	await deliverAdminAlerts(deps, ids).catch((error: unknown) =>
		deps.logger.warn({ err: error, alerts: ids }, 'admin alerts not sent now; they stay queued')
	);
}

/** One pass of the admin alerts outbox (only `ids` when given, right after they were queued); returns how many were sent. */
export async function deliverAdminAlerts(deps: NoticeDeps, ids?: readonly number[]): Promise<number> {
	return runOutboxPass(adminAlertOutbox(deps, ids), {
		clock: deps.clock,
		logger: deps.logger,
		budget: deps.pacing.budget,
		cooldown: deps.cooldown,
		sleep: deps.pacing.sleep
	});
}

/**
 * The admin alerts outbox as a sender of the outbox driver. Its send waits for the admin chat's
 * place in the bot's one budget and settles it on the answer (`sendInPlace`, as the bot's own
 * replies do), so the driver takes no place of its own (`client`). The ladder is the guest
 * notices': 403/400 end the row as `blocked`, a 429 waits its retry_after and holds the budget,
 * 5xx and timeouts back off, the 35th counted failure gives up.
 */
function adminAlertOutbox(deps: NoticeDeps, ids?: readonly number[]): OutboxSender<ClaimedAlert, string, bigint> {
	return {
		name: 'admin alert',
		perPass: ids?.length ?? 20,
		ladder: {
			backoff: { baseMs: 2 * SECOND, capMs: 2 * 60 * SECOND },
			maxAttempts: MAX_ALERT_ATTEMPTS,
			recipient: 'person',
			floodCountsAsAttempt: false
		},
		places: 'client',
		claim: (now) => claimAdminAlert(deps.db, now, ALERT_LEASE_MS, ids),
		attempt: (alert) => alert.attempts + 1,
		chatId: (alert) => alert.chatId,
		describe: (alert) => ({ alertId: alert.id }),
		prepare: async (alert) => ({ message: alert.text }),
		async send(alert, text) {
			const { budget, sleep } = deps.pacing;
			const sent = await budget.sendInPlace(alert.chatId, sleep, () =>
				deps.api.sendMessage(Number(alert.chatId), text)
			);
			return BigInt(sent.message_id);
		},
		recordSent: (alert, _text, messageId) => recordAlertSent(deps.db, alert, deps.clock.now(), messageId),
		postpone: (alert, retryAt, error, counts) => postponeAlert(deps.db, alert, retryAt, error, counts),
		end: (alert, as, reason, called) => endAlert(deps.db, alert, as === 'poison' ? 'failed' : 'blocked', reason, called)
	};
}
