import { Composer } from 'grammy';
import { giveConsent } from '../../../lib/server/guests/guest-steps.ts';
import type { BotContext } from '../context.ts';
import { oncePerUpdate } from '../once-per-update.ts';
import { parseGuestCallback } from '../guest-callbacks.ts';
import { sendCatalogue, stepDeps, stepRefusalText } from '../guest-replies.ts';
import { guestText } from '../../../lib/i18n/guest-flow.ts';

/** The explicit consent button: records consent, then shows the outfit catalogue. */
export function consentFeature(): Composer<BotContext> {
	const composer = new Composer<BotContext>();
	composer.callbackQuery(/^gc:/, async (ctx) => {
		const data = parseGuestCallback(ctx.callbackQuery.data);
		if (!data || data.kind !== 'consent') return void (await ctx.answerCallbackQuery());
		await oncePerUpdate(ctx, async () => {
			const outcome = await giveConsent(stepDeps(ctx.deps), data.token, BigInt(ctx.from.id));
			if (outcome.kind !== 'done') {
				const text = stepRefusalText(ctx, outcome);
				await ctx.answerCallbackQuery({ text });
				if (outcome.kind === 'already' && outcome.step === 'consented') return sendCatalogue(ctx, data.token);
				await ctx.reply(text);
				return;
			}
			await ctx.answerCallbackQuery({ text: guestText(ctx.locale, 'consentThanks') });
			await ctx.editMessageReplyMarkup({ reply_markup: undefined }).catch(() => undefined);
			await sendCatalogue(ctx, data.token);
		});
	});
	return composer;
}
