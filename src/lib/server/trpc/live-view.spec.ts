import type { AddressInfo } from 'node:net';
import { createTRPCClient, httpSubscriptionLink } from '@trpc/client';
import { initTRPC } from '@trpc/server';
import { createHTTPServer } from '@trpc/server/adapters/standalone';
import { EventSource } from 'eventsource';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChangeFeed, watchSnapshots } from '../console/change-feed.ts';
import { silentLogger } from '../log/logger.ts';
import { FakeClock, HOUR } from '../time/clock.ts';
import { OpenStreams } from '../web/open-streams.ts';
import { createCallerFactory, operatorProcedure, router, type TrpcContext } from './init.ts';
import { guardLiveView, LIVE_VIEW_LIMITS } from './live-view.ts';

/**
 * The live-view guard between a real tRPC HTTP server and tRPC's own client (httpSubscriptionLink
 * over the `eventsource` package, as in the browser): what each way of ending does to the client.
 * The time limit runs on a FakeClock; only the recheck interval is shortened.
 */
describe('live views and tRPC’s client', () => {
	const stops: (() => void)[] = [];
	afterEach(() => stops.splice(0).forEach((stop) => stop()));

	async function serve(clock: FakeClock, stillAllowed: () => Promise<boolean>) {
		const views = new OpenStreams({ ...LIVE_VIEW_LIMITS, recheckMs: 20 }, clock);
		let marker = 0;
		let opened = 0;
		const feed = new ChangeFeed(async () => String(marker), silentLogger, 10);
		const t = initTRPC.create();
		const router = t.router({
			watch: t.procedure.subscription(({ signal }) => {
				opened++;
				return guardLiveView(views, 'operator:1', stillAllowed, signal, (stop) =>
					watchSnapshots(feed, stop, async () => ({ marker }))
				);
			})
		});
		const server = createHTTPServer({ router });
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		stops.push(() => server.close());
		const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		const client = createTRPCClient<typeof router>({ links: [httpSubscriptionLink({ url, EventSource })] });
		const seen = { data: [] as number[], started: 0, errors: [] as string[] };
		const subscription = client.watch.subscribe(undefined, {
			onStarted: () => seen.started++,
			onData: (value) => seen.data.push(value.marker),
			onError: (error) => seen.errors.push(error.data?.code ?? error.message)
		});
		stops.push(() => subscription.unsubscribe());
		return { views, seen, opened: () => opened, change: () => marker++ };
	}

	it('finding 3: at the time limit the view ends and the client reconnects by itself, checked afresh', async () => {
		const clock = new FakeClock();
		const { views, seen, opened, change } = await serve(clock, async () => true);
		await vi.waitFor(() => expect(seen.data).toEqual([0]));
		clock.advance(HOUR);
		await vi.waitFor(() => expect(opened()).toBe(2), { timeout: 10_000 });
		await vi.waitFor(() => expect(seen.started).toBe(2));
		change();
		await vi.waitFor(() => expect(seen.data.at(-1)).toBe(1));
		expect(seen.errors).toEqual([]);
		expect(views.size).toBe(1);
	}, 15_000);

	it('finding 3: a view whose session is gone ends with UNAUTHORIZED and the client stays away', async () => {
		let allowed = true;
		const { views, seen, opened } = await serve(new FakeClock(), async () => allowed);
		await vi.waitFor(() => expect(seen.data).toEqual([0]));
		allowed = false;
		await vi.waitFor(() => expect(seen.errors).toEqual(['UNAUTHORIZED']));
		await new Promise((resolve) => setTimeout(resolve, 4_000)); // longer than EventSource's reconnect delay
		expect(opened()).toBe(1);
		expect(views.size).toBe(0);
	}, 15_000);

	it('the operator tier refuses a console subscription that does not go through watchLive', async () => {
		const unguarded = router({
			watch: operatorProcedure.subscription(async function* () {
				yield 'for ever';
			})
		});
		const ctx = {
			operator: { id: 1, username: 'olga', displayName: null, role: 'owner' },
			clientIp: null,
			sessionToken: 'x'
		} as unknown as TrpcContext;
		await expect(createCallerFactory(unguarded)(ctx).watch()).rejects.toMatchObject({
			code: 'INTERNAL_SERVER_ERROR',
			message: expect.stringContaining('watchLive')
		});
	});
});
