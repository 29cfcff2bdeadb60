/**
 * How long the kiosk's end screens stay before Start comes back by itself ("being drawn" has its
 * own rule: queued-wait.ts). The browser tests fast-forward the page's clock by these.
 */
/** The guest's stickers once the link is sent (the server serves them for 60 s). */
export const READY_SCREEN_MS = 15_000;
/** A closed session's reason (reset, camera failure, timeout). */
export const CLOSED_SCREEN_MS = 8_000;
