import type { Db } from '../../src/lib/server/db/client.ts';
import { BotBudget } from '../../src/lib/server/telegram/bot-budget.ts';
import type { SendPacing } from '../../src/lib/server/telegram/send-budget-api.ts';
import { FakeClock, type Clock } from '../../src/lib/server/time/clock.ts';

/**
 * The bot's one send budget as a worker has it (the limits of send-budget-rules.ts, in the test's
 * database), for tests that build a bot, the leads client or an admin alert: every sender is paced,
 * there is no unpaced variant. A wait moves a FakeClock instead of sleeping; on the system clock it sleeps.
 */
export function sendPacingFor(db: Db, clock: Clock): SendPacing {
	return {
		budget: new BotBudget(db, clock, 'test'),
		sleep: async (ms) => {
			if (clock instanceof FakeClock) clock.advance(ms);
			else await new Promise((resolve) => setTimeout(resolve, ms));
		}
	};
}

/** Limits no message ever waits for (the bookkeeping stays: each message still writes its place). */
const NO_WAITS = {
	perSecond: 1_000_000,
	bulkPerSecond: 1_000_000,
	guestReserve: 0,
	perChatMs: 0,
	perGroupMs: 0,
	answerTimeoutMs: 0
};

/**
 * The budget's bookkeeping with limits that never make a message wait of their own, for harnesses whose tests
 * are about something else and drive the bot and other senders at one FakeClock instant (a paced
 * reply would move their clock or hold their notice). The limits themselves are proven by the
 * send-budget tests (telegram-send-budget*.test.ts, leads-send-budget, admin-alerts-send-budget,
 * postgres/pg-fleet-send-budget).
 */
export function sendPacingWithoutWaits(db: Db, clock: Clock): SendPacing {
	// A chat row another sender wrote with the real limits (a notice's place) still makes the reply
	// wait: that wait moves the FakeClock as sendPacingFor's does, never spins.
	return { ...sendPacingFor(db, clock), budget: new BotBudget(db, clock, 'test', NO_WAITS) };
}
