import type { Cookies } from '@sveltejs/kit';
import type { Db } from '../db/client.ts';
import { HOUR, SECOND, type Clock } from '../time/clock.ts';
import { OpenStreams, type StreamEnd, type StreamLimits } from '../web/open-streams.ts';
import { KIOSK_COOKIE } from './kiosk-auth.ts';
import { eventStream, type EndStream, type Send } from './event-stream.ts';
import { kioskError } from './kiosk-http.ts';
import { findKioskByKey } from './kiosk-keys.ts';
import type { KioskRequest } from './kiosk-route.ts';

/**
 * The kiosk's event streams (pause on/off, its guest session) last only while the kiosk's key
 * does: checked every few seconds, a revoked key ends them with an `unauthorised` event (the page
 * asks for a key again; EventSource's reconnect would get 401 anyway).
 */
export const KIOSK_STREAM_LIMITS: StreamLimits = {
	// A kiosk page holds two streams (kiosk events, its guest session's); four leave room for a reload.
	perOwner: 4,
	// Far more kiosks than one event has; beyond it a flood with a leaked key cannot grow the process.
	total: 64,
	// EventSource reconnects by itself after `retry: 1000`, and the key is checked anew.
	maxDurationMs: HOUR,
	recheckMs: 5 * SECOND
};

/** What the page hears last when the server ends a stream; none = EventSource simply reconnects. */
const LAST_EVENT: Record<StreamEnd, Parameters<EndStream>[0]> = {
	revoked: { event: 'unauthorised', data: { error: 'no_kiosk_key' } },
	too_many: { event: 'closed', data: { reason: 'too_many_streams' } },
	// Kiosk streams do not share when full (no shareWhenFull): a new one is refused instead.
	displaced: { event: 'closed', data: { reason: 'too_many_streams' } },
	time_limit: undefined,
	failed: undefined
};

const streamsByDb = new WeakMap<Db, OpenStreams>();

function kioskStreamsFor(db: Db, clock: Clock): OpenStreams {
	let streams = streamsByDb.get(db);
	if (!streams) streamsByDb.set(db, (streams = new OpenStreams(KIOSK_STREAM_LIMITS, clock)));
	return streams;
}

/** An event stream of this kiosk within the limits above; 429 when the process holds too many. */
export function kioskEventStream(
	ctx: KioskRequest,
	cookies: Cookies,
	signal: AbortSignal,
	start: (send: Send) => () => void
): Response {
	const key = cookies.get(KIOSK_COOKIE);
	const stillRegistered = async () => (await findKioskByKey(ctx.app.db, key))?.id === ctx.kiosk.id;
	let endStream: EndStream | undefined;
	const slot = kioskStreamsFor(ctx.app.db, ctx.app.clock).open(`kiosk:${ctx.kiosk.id}`, stillRegistered, (reason) =>
		endStream?.(LAST_EVENT[reason])
	);
	if (!slot) return kioskError(429, 'too_many_streams', {}, { 'retry-after': '30' });
	return eventStream(signal, (send, end) => {
		endStream = end;
		const stop = start(send);
		return () => {
			stop();
			slot.close();
		};
	});
}
