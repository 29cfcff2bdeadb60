import { z } from 'zod';
import { messageFeedFor } from '../../messages/message-feed.ts';
import { readConversation, readMessageActivity } from '../../messages/message-views.ts';
import { operatorProcedure, router } from '../init.ts';
import { watchLive } from '../live-view.ts';

const window = z.object({ days: z.number().int().min(7).max(90).default(14) });
const conversation = z.object({ guest: z.string().trim().min(1).max(64) });

/** The bot's message history and daily counters (docs/console.md "Messages"); read-only, viewers included. */
export const messagesRouter = router({
	watchActivity: operatorProcedure
		.input(window)
		.subscription(({ ctx, input, signal }) =>
			watchLive(ctx, signal, messageFeedFor(ctx.db, ctx.logger), () =>
				readMessageActivity(ctx.db, ctx.clock, input.days)
			)
		),

	watchConversation: operatorProcedure
		.input(conversation)
		.subscription(({ ctx, input, signal }) =>
			watchLive(ctx, signal, messageFeedFor(ctx.db, ctx.logger), () => readConversation(ctx.db, input.guest))
		)
});
