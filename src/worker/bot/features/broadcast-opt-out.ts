import { Composer } from 'grammy';
import { optOutOfBroadcasts, type OptOutVia } from '../../../lib/server/broadcasts/opt-out.ts';
import { broadcastText } from '../../../lib/i18n/broadcasts.ts';
import { OPT_OUT_CALLBACK_PATTERN, optOutCallback } from '../../../lib/server/telegram/broadcast-message.ts';
import type { BotContext } from '../context.ts';

/**
 * "No more messages": the button under every broadcast and /stop do the same — the guest's news
 * opt-in becomes `out` and they are skipped at once, even by a broadcast being sent right now.
 * /news (news-opt-in.ts) turns news on again. Registered before the maintenance pause: saying no
 * to messages never waits for the image provider.
 */
export function broadcastOptOutFeature(): Composer<BotContext> {
	const composer = new Composer<BotContext>();
	const privateChats = composer.chatType('private');
	privateChats.command('stop', async (ctx) => {
		await ctx.reply(await optOut(ctx, 'stop', null));
	});
	privateChats.callbackQuery(OPT_OUT_CALLBACK_PATTERN, async (ctx) => {
		const broadcastId = optOutCallback.safeParse(ctx.callbackQuery.data);
		const text = await optOut(ctx, 'broadcast_button', broadcastId.success ? broadcastId.data : null);
		await ctx.answerCallbackQuery({ text });
		await ctx.reply(text);
	});
	return composer;
}

async function optOut(ctx: BotContext, via: OptOutVia, broadcastId: number | null): Promise<string> {
	const { db, clock, logger } = ctx.deps;
	const { already } = await optOutOfBroadcasts(db, clock, BigInt(ctx.from!.id), via, ctx.locale, broadcastId);
	if (!already) logger.info({ via, broadcastId }, 'guest opted out of broadcasts');
	return broadcastText(ctx.locale, already ? 'alreadyOptedOut' : 'optedOut');
}
