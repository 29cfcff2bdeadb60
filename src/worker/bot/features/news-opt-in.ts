import { Composer } from 'grammy';
import { answerNewsQuestion, NEWS_ANSWER_PATTERN, turnNewsOn } from '../../../lib/server/broadcasts/news-choice.ts';
import { newsText, type NewsTextKey } from '../../../lib/i18n/news.ts';
import type { BotContext } from '../context.ts';

const ANSWER_TEXT: Record<'yes' | 'no' | 'already', NewsTextKey> = {
	yes: 'answeredYes',
	no: 'answeredNo',
	already: 'alreadyAnswered'
};
const COMMAND_TEXT: Record<'on' | 'already' | 'unknown', NewsTextKey> = {
	on: 'newsOn',
	already: 'newsAlreadyOn',
	unknown: 'newsUnknownGuest'
};

/**
 * The news opt-in (broadcasts/news-choice.ts): Yes / No under the one question asked after a pack,
 * and /news, with which a guest turns news on themselves (again after /stop or No). The buttons
 * go once answered, so the question's message shows the answer instead. Registered next to /stop,
 * before the maintenance pause.
 */
export function newsOptInFeature(): Composer<BotContext> {
	const composer = new Composer<BotContext>();
	const privateChats = composer.chatType('private');
	privateChats.command('news', async (ctx) => {
		const { db, clock, logger } = ctx.deps;
		const outcome = await turnNewsOn(db, clock, BigInt(ctx.from.id), ctx.locale);
		if (outcome === 'on') logger.info({ via: 'news_command' }, 'guest opted in to news');
		await ctx.reply(newsText(ctx.locale, COMMAND_TEXT[outcome]));
	});
	privateChats.callbackQuery(NEWS_ANSWER_PATTERN, async (ctx) => {
		const { db, clock, logger } = ctx.deps;
		const [, answer, version] = NEWS_ANSWER_PATTERN.exec(ctx.callbackQuery.data) as unknown as [
			string,
			'yes' | 'no',
			string
		];
		const outcome = await answerNewsQuestion(db, clock, BigInt(ctx.from.id), answer, version, ctx.locale);
		if (outcome !== 'already') logger.info({ answer: outcome, version }, 'guest answered the news question');
		const text = newsText(ctx.locale, ANSWER_TEXT[outcome]);
		await ctx.answerCallbackQuery({ text });
		await ctx.editMessageReplyMarkup().catch(() => undefined); // the message may be gone; the answer stands
		await ctx.reply(text);
	});
	return composer;
}
