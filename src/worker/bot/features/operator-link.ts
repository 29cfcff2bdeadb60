import { Composer } from 'grammy';
import { linkTelegramChat, type LinkResult } from '../../../lib/server/auth/operator-telegram.ts';
import { lockedText, operatorLinkText } from '../../../lib/i18n/operator-link.ts';
import type { Locale } from '../../../lib/i18n/locale.ts';
import type { BotContext } from '../context.ts';

/**
 * `/link <code>`: a console operator proves this private chat is theirs by sending the code their
 * profile page shows (auth/operator-telegram.ts); from then on their test sends come here. Only
 * private chats: the proof is that this person's own chat answered. Registered before the
 * maintenance pause, like /stop: it never waits for the image provider.
 */
export function operatorLinkFeature(): Composer<BotContext> {
	const composer = new Composer<BotContext>();
	composer.chatType('private').command('link', async (ctx) => {
		const typed = ctx.match.trim();
		if (typed === '') {
			await ctx.reply(operatorLinkText(ctx.locale, 'usage'));
			return;
		}
		const { db, clock, logger } = ctx.deps;
		const result = await linkTelegramChat(db, clock, BigInt(ctx.from.id), typed);
		// Never the code or the chat id: the log is readable by every console viewer.
		logger.info({ outcome: result.kind }, 'operator chat link attempt');
		await ctx.reply(answer(ctx.locale, result));
	});
	return composer;
}

function answer(locale: Locale, result: LinkResult): string {
	switch (result.kind) {
		case 'linked':
			return operatorLinkText(locale, 'linked', { username: result.username });
		case 'wrong':
			return operatorLinkText(locale, 'wrongCode');
		case 'expired':
			return operatorLinkText(locale, 'expiredCode');
		case 'locked':
			return lockedText(locale, result.retryAfterSeconds);
	}
}
