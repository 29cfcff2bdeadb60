import type { Db } from '../db/client.ts';
import type { Logger } from '../log/logger.ts';
import type { Clock } from '../time/clock.ts';
import { knownDeadLaunches, type GoneLaunch } from '../workers/worker-registry.ts';
import type { BotBudget } from './bot-budget.ts';

export interface DeadHoldsDeps {
	db: Db;
	clock: Clock;
	logger: Logger;
	budget: BotBudget;
	/** This worker's registry id: its own places are never released here, whatever its heartbeat says. */
	self: string;
}

/**
 * Releases the send-budget places held by workers known dead, so a chat a killed worker held (and
 * its share of the bot's second) is free again now rather than after answerTimeoutMs (35 s). Known
 * dead is the registry's word (worker-registry.ts `knownDeadLaunches`): stopped, silent past its
 * stale rule, or `gone` — the earlier launch whose stale instance lock this worker took over at
 * start. A place whose holder has no registry row, or a live one, is never touched. Runs at a
 * worker's start and then every heartbeat period in every worker (schedule.ts `send-budget-holds`).
 */
export async function releaseDeadHolds(deps: DeadHoldsDeps, gone: GoneLaunch | null = null): Promise<number> {
	const held = await deps.budget.heldPlaces();
	const holders = [...new Set(held.map((place) => place.holder))].filter((id) => id !== '' && id !== deps.self);
	if (holders.length === 0) return 0;
	const dead = new Set(await knownDeadLaunches(deps.db, deps.clock, holders, gone));
	const released = await deps.budget.releaseHeld(held.filter((place) => dead.has(place.holder)));
	if (released > 0) deps.logger.info({ released, launches: [...dead] }, 'released send-budget places of dead workers');
	return released;
}
