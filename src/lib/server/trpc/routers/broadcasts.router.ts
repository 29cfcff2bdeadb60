import { z } from 'zod';
import { composeBroadcastInput, RECIPIENT_STATES, scheduleBroadcastInput } from '../../../schemas/broadcast.schema.ts';
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
import { readRecipientPage, RESULTS_PAGE_SIZE } from '../../broadcasts/broadcast-results.ts';
import { readBroadcastDetail, readBroadcastEvents, readBroadcastList } from '../../broadcasts/broadcast-views.ts';
import { testSendBroadcast } from '../../broadcasts/test-send.ts';
import { operatorProcedure, router } from '../init.ts';
import { watchLive } from '../live-view.ts';

/** Broadcasts to guests who opted in to news (docs/console.md "Broadcasts"): glue over src/lib/server/broadcasts. */
const byId = z.object({ id: z.number().int().positive() });
const audienceInput = z.object({ eventId: z.number().int().positive().nullable() });
/** A page of one broadcast's recipients: `after` the last id shown (next page) or `before` the first (previous). */
const recipientsInput = z.object({
	id: z.number().int().positive(),
	state: z.enum(RECIPIENT_STATES).nullable().default(null),
	after: z.number().int().positive().nullable().default(null),
	before: z.number().int().positive().nullable().default(null)
});

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

	/** Who got it, who is waiting, who was skipped or not reached and why (viewers too, like the page). */
	recipients: operatorProcedure.input(recipientsInput).query(({ ctx, input }) =>
		readRecipientPage(ctx.db, {
			broadcastId: input.id,
			state: input.state,
			after: input.after,
			before: input.before,
			limit: RESULTS_PAGE_SIZE
		})
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
