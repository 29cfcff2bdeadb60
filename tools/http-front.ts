import type { Server } from 'node:http';

/**
 * How long the stand-ins (the Telegram emulator, the fake Gemini) keep an idle keep-alive
 * connection open. Node's http.Server closes one after 5 s; Node's clients (fetch/undici and
 * http.Agent) read that `Keep-Alive: timeout=5` and drop theirs after about 4 s. Under a loaded
 * machine those two timers race and a client reuses a socket the server has just closed: the
 * request dies with ECONNRESET. Real front ends (Telegram's, Google's) keep idle connections far
 * longer than any client's idle timeout, so the stand-ins do too.
 */
export const FRONT_END_KEEP_ALIVE_MS = 120_000;

/** Gives a stand-in's server the keep-alive window of a real front end. */
export function keepConnectionsLikeAFrontEnd(server: Server): void {
	server.keepAliveTimeout = FRONT_END_KEEP_ALIVE_MS;
	// Node's guidance: the headers timeout stays above the keep-alive window, so an idle
	// connection is never cut by the headers timer first.
	server.headersTimeout = FRONT_END_KEEP_ALIVE_MS + 1_000;
}

/**
 * Stops a stand-in's server without resetting a request in flight: idle connections close at once,
 * a request being answered finishes (its connection closes after the answer) and only one still
 * open after `graceMs` (a held or hanging call) is cut.
 */
export async function closeWithoutResets(server: Server, graceMs: number): Promise<void> {
	const closed = new Promise<void>((resolve) => server.close(() => resolve()));
	// A connection whose answer just went out turns idle without closing itself: close those as they come.
	const sweep = setInterval(() => server.closeIdleConnections(), 20);
	server.closeIdleConnections();
	const force = setTimeout(() => server.closeAllConnections(), graceMs);
	await closed;
	clearTimeout(force);
	clearInterval(sweep);
}
