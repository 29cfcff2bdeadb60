/** How long typing must pause before a filter box's text counts. */
export const TYPING_PAUSE_MS = 250;

/**
 * Text typed into a filter box, and the same text once typing has paused: a page follows
 * `settled`, so the server gets one stream per settled filter rather than one per key press.
 * Create it while a component initialises: its effect lives and ends with that component.
 */
export class DebouncedText {
	typed = $state('');
	settled = $state('');

	constructor(pauseMs = TYPING_PAUSE_MS) {
		$effect(() => {
			const value = this.typed;
			const timer = setTimeout(() => (this.settled = value), pauseMs);
			return () => clearTimeout(timer);
		});
	}

	/** Both at once: clearing a filter should not wait for a pause. */
	reset(value = ''): void {
		this.typed = value;
		this.settled = value;
	}
}
