import type { KioskSessionView } from '$lib/schemas/kiosk';

/** The usual stay of "being drawn": then the kiosk is free for the next guest. */
export const QUEUED_SCREEN_MS = 15_000;
/**
 * "Being drawn" stays up longer when the estimate says the pack is due within this, so a guest who
 * waits sees it ready (docs/kiosk.md, "Your pack is ready"); a longer wait frees the kiosk after 15 s.
 */
export const QUEUED_WAIT_FOR_PACK_MS = 60_000;
/** The estimate is a median: half the packs take longer, so the screen allows half as long again, and a little. */
const ETA_SLACK = 1.5;
const GRACE_MS = 5_000;

/** How long "being drawn" stays: until the pack is due by its estimate (with slack) when that is within a minute, else 15 s. */
export function queuedScreenMs(view: Pick<KioskSessionView, 'queue'>): number {
	const due = view.queue ? view.queue.etaSeconds * 1000 * ETA_SLACK + GRACE_MS : Infinity;
	return due <= QUEUED_WAIT_FOR_PACK_MS ? Math.max(QUEUED_SCREEN_MS, due) : QUEUED_SCREEN_MS;
}
