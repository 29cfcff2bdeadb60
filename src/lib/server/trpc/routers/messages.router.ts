import { z } from 'zod';
import { watchSnapshots } from '../../console/change-feed.ts';
import { messageFeedFor } from '../../messages/message-feed.ts';
import { readConversation, readMessageActivity } from '../../messages/message-views.ts';
import { operatorProcedure, router } from '../init.ts';

const window = z.object({ days: z.number().int().min(7).max(90).default(14) });
const conversation = z.object({ guest: z.string().trim().min(1).max(64) });

/** The bot's message history and daily counters (docs/console.md "Messages"); read-only, viewers included. */
export const messagesRouter = router({
	watchActivity: operatorProcedure.input(window).subscription(async function* ({ ctx, input, signal }) {
		yield* watchSnapshots(messageFeedFor(ctx.db, ctx.logger), signal, () => readMessageActivity(ctx.db, ctx.clock, input.days));
	}),

	watchConversation: operatorProcedure.input(conversation).subscription(async function* ({ ctx, input, signal }) {
		yield* watchSnapshots(messageFeedFor(ctx.db, ctx.logger), signal, () => readConversation(ctx.db, input.guest));
	})
});
