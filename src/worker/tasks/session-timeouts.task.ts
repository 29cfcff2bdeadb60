import type { Config } from '../../lib/server/config/config.ts';
import type { Db } from '../../lib/server/db/client.ts';
import { markBotBlocked } from '../../lib/server/guests/bot-blocked.ts';
import { readGuestLanguage } from '../../lib/server/guests/guest-profile.ts';
import { forgetOldUpdates } from '../../lib/server/guests/processed-updates.ts';
import { forgetHandledUpdates } from '../../lib/server/telegram/bot-updates.repository.ts';
import { sessionTimeoutsFrom } from '../../lib/server/guests/session-clock.ts';
import { expireOverdueSessions, type ExpiredSession } from '../../lib/server/guests/session-timeouts.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import type { TelegramApi } from '../../lib/server/telegram/api.ts';
import { isBlockedByUser } from '../../lib/server/telegram/errors.ts';
import type { Clock } from '../../lib/server/time/clock.ts';
import { closedText } from '../../lib/i18n/guest-flow.ts';

export interface SessionTimeoutDeps {
	db: Db;
	clock: Clock;
	logger: Logger;
	config: Pick<Config, 'KIOSK_QR_TIMEOUT_SECONDS' | 'KIOSK_IDLE_TIMEOUT_SECONDS'>;
	api: Pick<TelegramApi, 'sendMessage'>;
}

/** At the schedule's pass a second (worker/schedule.ts), old update ids are forgotten every ten minutes. */
const FORGET_UPDATES_EVERY_RUNS = 600;

/**
 * The server's session clock (the browser is never trusted with it): closes sessions that sat past their deadline and
 * tells a guest who had linked that their kiosk session timed out. The kiosk page learns it through
 * its live view. Also forgets processed update ids, and the bot inbox's handled rows, older than a day.
 */
export function sessionTimeoutsPass(deps: SessionTimeoutDeps): () => Promise<void> {
	let runs = 0;
	return async () => {
		const expired = await expireOverdueSessions({
			db: deps.db,
			clock: deps.clock,
			timeouts: sessionTimeoutsFrom(deps.config)
		});
		for (const session of expired) await tellGuest(deps, session);
		if (runs++ % FORGET_UPDATES_EVERY_RUNS === 0) {
			await forgetOldUpdates(deps.db, deps.clock);
			await forgetHandledUpdates(deps.db, deps.clock);
		}
	};
}

async function tellGuest(deps: SessionTimeoutDeps, session: ExpiredSession): Promise<void> {
	if (session.telegramUserId === null) return;
	const locale = await readGuestLanguage(deps.db, session.telegramUserId);
	try {
		await deps.api.sendMessage(Number(session.telegramUserId), closedText(locale, session.reason));
	} catch (error) {
		// A blocked bot (403) is the guest's choice: the guest is marked, so notices and broadcasts
		// skip them too. Anything else is logged and not retried — the session is closed either way
		// and the kiosk shows why.
		if (isBlockedByUser(error)) await markBotBlocked(deps.db, deps.clock, session.telegramUserId);
		else deps.logger.warn({ err: error }, 'could not tell a guest their session timed out');
	}
}
