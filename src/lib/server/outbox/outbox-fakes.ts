import { silentLogger } from '../log/logger.ts';
import { ChatCooldown } from '../telegram/flood-control.ts';
import { SECOND, type FakeClock } from '../time/clock.ts';
import type { OutboxDeps } from './outbox-driver.ts';

/** In-memory stand-ins for the outbox driver's unit tests (outbox-driver.spec.ts). */

/** A send budget in memory: a chat gets one place a second; a hold is a moment before which bulk waits. */
export function fakeBudget(clock: FakeClock) {
	const last = new Map<bigint, number>();
	let hold = 0;
	const floods: number[] = [];
	const settled: bigint[] = [];
	const wait = (chatId: bigint) => Math.max(0, (last.get(chatId) ?? -Infinity) + SECOND - clock.now().getTime());
	return {
		floods,
		settled,
		setHold: (until: number) => (hold = until),
		budget: {
			holdMs: async () => Math.max(0, hold - clock.now().getTime()),
			take: async (chatId: bigint) => {
				const w = Math.max(wait(chatId), hold - clock.now().getTime());
				if (w <= 0) last.set(chatId, clock.now().getTime());
				return Math.max(0, w);
			},
			tryTake: async (chatId: bigint) => {
				if (wait(chatId) > 0) return false;
				last.set(chatId, clock.now().getTime());
				return true;
			},
			settle: async (chatId: bigint) => {
				settled.push(chatId);
			},
			noteFlood: async (ms: number) => {
				floods.push(ms);
				hold = Math.max(hold, clock.now().getTime() + ms);
			}
		}
	};
}

export function depsFor(clock: FakeClock, more: Partial<OutboxDeps> = {}): OutboxDeps {
	const { budget } = fakeBudget(clock);
	return {
		clock,
		logger: silentLogger,
		budget,
		cooldown: new ChatCooldown(),
		random: () => 0.5,
		sleep: async (ms) => clock.advance(ms),
		...more
	};
}
