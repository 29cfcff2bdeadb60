import { z } from 'zod';
import { changeFeedFor } from '../../console/change-feed.ts';
import { listGuests } from '../../console/guests-list.ts';
import { grantExtraPack } from '../../guests/extra-pack.ts';
import { resetGuest } from '../../guests/reset-guest.ts';
import { loadPseudonymKey } from '../../lifecycle/pseudonym.ts';
import { operatorProcedure, router } from '../init.ts';
import { watchLive } from '../live-view.ts';

const guestId = z.object({
	telegramUserId: z
		.string()
		.regex(/^\d{1,20}$/, 'a Telegram id is digits only')
		.transform(BigInt)
});
const search = z.object({ search: z.string().max(100).default('') });

export const guestsRouter = router({
	list: operatorProcedure.input(search).query(({ ctx, input }) => listGuests(ctx.db, input.search)),

	watch: operatorProcedure
		.input(search)
		.subscription(({ ctx, input, signal }) =>
			watchLive(ctx, signal, changeFeedFor(ctx.db, ctx.logger), () => listGuests(ctx.db, input.search))
		),

	grantExtraPack: operatorProcedure
		.input(guestId)
		.mutation(({ ctx, input }) => grantExtraPack(ctx.db, ctx.clock, ctx.actor, input.telegramUserId)),

	reset: operatorProcedure.input(guestId).mutation(({ ctx, input }) =>
		resetGuest(
			{
				db: ctx.db,
				clock: ctx.clock,
				dbPath: ctx.config.dbPath,
				fileStore: ctx.fileStore,
				pseudonymKey: loadPseudonymKey(ctx.config.dataDir),
				logger: ctx.logger
			},
			ctx.actor,
			input.telegramUserId
		)
	)
});
