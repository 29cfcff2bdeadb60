import { getContext, setContext } from 'svelte';

/** "Now" for ages and deadlines on screen, ticking once a second (display only; no server polling). */
export class TickingClock {
	now = $state(Date.now());
	#timer: ReturnType<typeof setInterval> | undefined;

	start(): () => void {
		this.#timer = setInterval(() => (this.now = Date.now()), 1000);
		return () => clearInterval(this.#timer);
	}
}

const KEY = Symbol('console-clock');
export function provideClock(clock: TickingClock): void {
	setContext(KEY, clock);
}
export function useClock(): TickingClock {
	return getContext<TickingClock>(KEY);
}
