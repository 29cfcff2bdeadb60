import { z } from 'zod';
import { composeBroadcastInput, scheduleBroadcastInput } from '../../../schemas/broadcast.schema.ts';
import { countAudience, countOptedIn } from '../../broadcasts/audience.ts';
import {
	cancelBroadcastNow,
	composeBroadcast,
	pauseBroadcastNow,
	resumeBroadcastNow,
	sendBroadcast,
	type BroadcastActionDeps
} from '../../broadcasts/broadcast-actions.ts';
import { broadcastFeedFor } from '../../broadcasts/broadcast-feed.ts';
import { readBroadcastDetail, readBroadcastEvents, readBroadcastList } from '../../broadcasts/broadcast-views.ts';
import { testSendBroadcast } from '../../broadcasts/test-send.ts';
import { operatorProcedure, router } from '../init.ts';
import { watchLive } from '../live-view.ts';

/** Broadcasts to guests who opted in to news (docs/console.md "Broadcasts"): glue over src/lib/server/broadcasts. */
const byId = z.object({ id: z.number().int().positive() });
const audienceInput = z.object({ eventId: z.number().int().positive().nullable() });

type Ctx = {
	db: BroadcastActionDeps['db'];
	clock: BroadcastActionDeps['clock'];
	actor: BroadcastActionDeps['actor'];
	fileStore: BroadcastActionDeps['fileStore'];
};
const actionDeps = (ctx: Ctx): BroadcastActionDeps => ({
	db: ctx.db,
	clock: ctx.clock,
	actor: ctx.actor,
	fileStore: ctx.fileStore
});

export const broadcastsRouter = router({
	watchList: operatorProcedure.subscription(({ ctx, signal }) =>
		watchLive(ctx, signal, broadcastFeedFor(ctx.db, ctx.logger), () => readBroadcastList(ctx.db))
	),

	watchOne: operatorProcedure
		.input(byId)
		.subscription(({ ctx, input, signal }) =>
			watchLive(ctx, signal, broadcastFeedFor(ctx.db, ctx.logger), () =>
				readBroadcastDetail(ctx.db, input.id, ctx.operator.id)
			)
		),

	events: operatorProcedure.query(({ ctx }) => readBroadcastEvents(ctx.db)),
	audience: operatorProcedure.input(audienceInput).query(({ ctx, input }) => countAudience(ctx.db, input.eventId)),
	/** Guests who said yes to news, in total and per event: shown before anyone writes a message. */
	optedIn: operatorProcedure.query(({ ctx }) => countOptedIn(ctx.db)),

	create: operatorProcedure.input(composeBroadcastInput).mutation(async ({ ctx, input }) => {
		const broadcast = await composeBroadcast(actionDeps(ctx), input);
		ctx.logger.info({ broadcastId: broadcast.id, by: ctx.operator.username }, 'broadcast created');
		return { id: broadcast.id };
	}),
	send: operatorProcedure.input(scheduleBroadcastInput).mutation(async ({ ctx, input }) => {
		const broadcast = await sendBroadcast(actionDeps(ctx), input.id, input.sendAt ? new Date(input.sendAt) : null);
		return { state: broadcast.state, sendAt: broadcast.sendAt };
	}),
	testSend: operatorProcedure
		.input(byId)
		.mutation(({ ctx, input }) => testSendBroadcast(actionDeps(ctx), input.id, ctx.operator.id)),
	pause: operatorProcedure
		.input(byId)
		.mutation(async ({ ctx, input }) => ({ state: (await pauseBroadcastNow(actionDeps(ctx), input.id)).state })),
	resume: operatorProcedure
		.input(byId)
		.mutation(async ({ ctx, input }) => ({ state: (await resumeBroadcastNow(actionDeps(ctx), input.id)).state })),
	cancel: operatorProcedure
		.input(byId)
		.mutation(async ({ ctx, input }) => ({ state: (await cancelBroadcastNow(actionDeps(ctx), input.id)).state }))
});
