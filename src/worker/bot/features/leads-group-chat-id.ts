import { Composer } from 'grammy';
import { leadText } from '../../../lib/i18n/leads.ts';
import type { BotContext } from '../context.ts';

/**
 * /chat_id in a group: the bot answers with the group's chat id. Telegram's apps do not show a
 * group's id, and the console's Settings → Sales group chat id needs it, so whoever makes a new
 * sales group adds the bot, sends /chat_id and pastes the answer — no terminal, no other bot.
 * Anyone in the group may ask: the id grants nothing (only a bot that is in the group can post
 * there). The answer says whether lead cards already come to this group. Registered before the
 * maintenance pause, so it answers during one too.
 */
export function leadsGroupChatIdFeature(): Composer<BotContext> {
	const composer = new Composer<BotContext>();
	composer.chatType(['group', 'supergroup']).command('chat_id', async (ctx) => {
		const salesGroup = (await ctx.deps.runtime.read()).salesGroupChatId;
		const key = salesGroup === BigInt(ctx.chat.id) ? 'chatIdIsSalesGroup' : 'chatIdOfGroup';
		await ctx.reply(leadText(ctx.locale, key, { id: String(ctx.chat.id) }));
	});
	return composer;
}
