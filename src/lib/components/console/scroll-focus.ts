/**
 * A panel that scrolls (a wide table on a phone, a long log line) must be reachable with the
 * keyboard, or a keyboard user cannot scroll it (WCAG 2.1.1; axe's scrollable-region-focusable).
 * Such a panel becomes a tab stop while its content overflows and stops being one when it fits
 * again, so a laptop's keyboard user does not tab through panels that have nothing to scroll.
 * Watches the console's main area: its size (the window changed) and its content (live data).
 */
const SCROLLERS = '.panel, pre, [data-scroll-panel]';
const MARK = 'scrollFocus';

function overflows(element: HTMLElement): boolean {
	return element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1;
}

function update(root: HTMLElement): void {
	for (const element of root.querySelectorAll<HTMLElement>(SCROLLERS)) {
		const ours = MARK in element.dataset;
		if (overflows(element)) {
			if (ours || element.hasAttribute('tabindex')) continue;
			element.tabIndex = 0;
			element.dataset[MARK] = '';
		} else if (ours) {
			element.removeAttribute('tabindex');
			delete element.dataset[MARK];
		}
	}
}

/** Svelte attachment for the console's main element; returns the clean-up. */
export function scrollablePanelsFocusable(root: HTMLElement): () => void {
	let queued = 0;
	const soon = () => {
		if (queued) return;
		queued = requestAnimationFrame(() => {
			queued = 0;
			update(root);
		});
	};
	const resizes = new ResizeObserver(soon);
	resizes.observe(root);
	const changes = new MutationObserver(soon);
	changes.observe(root, { childList: true, subtree: true, characterData: true });
	update(root);
	return () => {
		cancelAnimationFrame(queued);
		resizes.disconnect();
		changes.disconnect();
	};
}
