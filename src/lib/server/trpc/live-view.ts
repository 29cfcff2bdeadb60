import { TRPCError } from '@trpc/server';
import { validateOperatorSession } from '../auth/operator-session.ts';
import type { OperatorIdentity } from '../auth/roles.ts';
import { watchSnapshots, type ChangeFeed } from '../console/change-feed.ts';
import type { Db } from '../db/client.ts';
import { HOUR, SECOND, type Clock } from '../time/clock.ts';
import { OpenStreams, type OpenOptions, type StreamEnd, type StreamLimits } from '../web/open-streams.ts';

/**
 * Console live views (tRPC subscriptions over SSE) last only as long as the session that opened
 * them: the session is checked again before every push and every few seconds, and the view ends
 * with an UNAUTHORIZED error event — which tRPC's browser client does not retry; the console
 * sends the person to sign in — once it is signed out, expired, or its operator removed or given
 * another role.
 */
export const LIVE_VIEW_LIMITS: StreamLimits = {
	// A console page opens one or two views; eight is four tabs of one person.
	perOwner: 8,
	// Every view re-reads its snapshot on each change (about once a second during an event): the cap
	// keeps a two-core machine's web process answering whatever many accounts do.
	total: 128,
	// Full, a newcomer's view takes the place of the oldest view of whoever holds the most (at least
	// two more than the newcomer), and an owner's always gets in (only another owner's view is safe
	// from it): a few accounts with many tabs cannot keep the others, and never the owner, out.
	shareWhenFull: true,
	// Bounds what one authorisation buys; the client reconnects at once and is checked afresh.
	maxDurationMs: HOUR,
	// How long a signed-out view may go on when nothing changes: one indexed lookup per view.
	recheckMs: 5 * SECOND
};

export interface LiveViewer {
	db: Db;
	clock: Clock;
	operator: OperatorIdentity;
	/** The cookie token the view was opened with. */
	sessionToken: string | null;
}

const viewsByDb = new WeakMap<Db, OpenStreams>();
const liveViews = new WeakSet<object>();

/** The live views of this process (one registry per database client, like the change feeds). */
function liveViewsFor(db: Db, clock: Clock): OpenStreams {
	let views = viewsByDb.get(db);
	if (!views) viewsByDb.set(db, (views = new OpenStreams(LIVE_VIEW_LIMITS, clock)));
	return views;
}

/** What every console subscription returns: its snapshot now and after each change, while the session lasts. */
export function watchLive<T>(
	viewer: LiveViewer,
	signal: AbortSignal | undefined,
	feed: ChangeFeed,
	read: () => Promise<T>
): AsyncGenerator<T> {
	const views = liveViewsFor(viewer.db, viewer.clock);
	const view = guardLiveView(
		views,
		`operator:${viewer.operator.id}`,
		() => isSessionUnchanged(viewer),
		signal,
		(stop) => watchSnapshots(feed, stop, read),
		{
			privileged: viewer.operator.role === 'owner'
		}
	);
	liveViews.add(view);
	return view;
}

/** For the operator tier: a console subscription that skipped watchLive would outlive its session. */
export function isLiveView(value: unknown): boolean {
	return typeof value === 'object' && value !== null && liveViews.has(value);
}

/**
 * `source` under `views`' limits for `owner`, checked with `stillAllowed`. The source gets its own
 * signal: aborted when the client leaves or when the view must end.
 */
export async function* guardLiveView<T>(
	views: OpenStreams,
	owner: string,
	stillAllowed: () => Promise<boolean>,
	signal: AbortSignal | undefined,
	source: (stop: AbortSignal) => AsyncIterable<T>,
	options: OpenOptions = {}
): AsyncGenerator<T> {
	const stop = new AbortController();
	const onLeave = () => stop.abort();
	signal?.addEventListener('abort', onLeave, { once: true });
	const state: { ended: StreamEnd | null } = { ended: null };
	const view = views.open(
		owner,
		stillAllowed,
		(reason) => {
			state.ended = reason;
			stop.abort();
		},
		options
	);
	try {
		if (!view)
			throw new TRPCError({
				code: 'TOO_MANY_REQUESTS',
				message: 'The server has too many live views open right now. Reload this page in a minute.'
			});
		if (signal?.aborted) return;
		for await (const snapshot of source(stop.signal)) {
			if (!(await view.check())) break;
			yield snapshot;
		}
		if (state.ended) throw endOfView(state.ended, views.limits);
	} finally {
		view?.close();
		signal?.removeEventListener('abort', onLeave);
		stop.abort();
	}
}

async function isSessionUnchanged({ db, clock, operator, sessionToken }: LiveViewer): Promise<boolean> {
	if (!sessionToken) return false;
	const session = await validateOperatorSession(db, clock, sessionToken, { renew: false });
	return session !== null && session.operator.id === operator.id && session.operator.role === operator.role;
}

/** UNAUTHORIZED and TOO_MANY_REQUESTS stop tRPC's client; SERVICE_UNAVAILABLE makes it reconnect. */
function endOfView(reason: StreamEnd, limits: StreamLimits): TRPCError {
	switch (reason) {
		case 'revoked':
			return new TRPCError({
				code: 'UNAUTHORIZED',
				message: 'Your session has ended or your access changed. Please sign in again.'
			});
		case 'too_many':
			return new TRPCError({
				code: 'TOO_MANY_REQUESTS',
				message: `This live view was closed: you have too many live views open (at most ${limits.perOwner}). Close some tabs and reload this page.`
			});
		case 'displaced':
			return new TRPCError({
				code: 'TOO_MANY_REQUESTS',
				message:
					'This live view was closed to make room for another operator’s: the server has too many live views open. Close some tabs and reload this page in a minute.'
			});
		case 'time_limit':
			return new TRPCError({
				code: 'SERVICE_UNAVAILABLE',
				message: 'This live view reached its time limit and reconnects.'
			});
		case 'failed':
			return new TRPCError({
				code: 'SERVICE_UNAVAILABLE',
				message: 'Your session could not be checked just now; the live view reconnects.'
			});
	}
}
