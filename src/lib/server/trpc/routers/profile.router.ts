import { issueLinkCode, readOperatorTelegram, unlinkTelegramChat } from '../../auth/operator-telegram.ts';
import { readBotUsername } from '../../guests/bot-identity.ts';
import { operatorProcedure, router } from '../init.ts';

/**
 * The signed-in operator's own profile (docs/console.md "Profile"): their Telegram chat for test
 * sends, linked by the chat sending the shown code to the bot. Glue over auth/operator-telegram.ts.
 */
export const profileRouter = router({
	telegram: operatorProcedure.query(async ({ ctx }) => ({
		...(await readOperatorTelegram(ctx.db, ctx.clock, ctx.operator.id)),
		botUsername: await readBotUsername(ctx.db)
	})),
	requestTelegramCode: operatorProcedure.mutation(({ ctx }) =>
		issueLinkCode(ctx.db, ctx.clock, ctx.actor, ctx.operator.id)
	),
	unlinkTelegram: operatorProcedure.mutation(({ ctx }) =>
		unlinkTelegramChat(ctx.db, ctx.clock, ctx.actor, ctx.operator.id)
	)
});
