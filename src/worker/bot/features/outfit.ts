import { Composer } from 'grammy';
import { chooseOutfit } from '../../../lib/server/guests/guest-steps.ts';
import { offeredOutfit } from '../../../lib/server/events/offered-catalogue.ts';
import type { BotContext } from '../context.ts';
import { oncePerUpdate } from '../once-per-update.ts';
import { parseGuestCallback } from '../guest-callbacks.ts';
import { stepDeps, stepRefusalText } from '../guest-replies.ts';
import { guestText } from '../../../lib/i18n/guest-flow.ts';

/** An outfit button (of an outfit the guest's event offers now): saves the choice (changeable until the photo) and sends the guest to the kiosk. */
export function outfitFeature(): Composer<BotContext> {
	const composer = new Composer<BotContext>();
	composer.callbackQuery(/^go:/, async (ctx) => {
		const data = parseGuestCallback(ctx.callbackQuery.data);
		const outfit = data?.kind === 'outfit' ? await offeredOutfit(ctx.deps.db, data.token, data.outfitId) : undefined;
		if (!data || data.kind !== 'outfit' || !outfit) {
			await ctx.answerCallbackQuery({ text: guestText(ctx.locale, 'outfitUnknown') });
			return;
		}
		await oncePerUpdate(ctx, async () => {
			const outcome = await chooseOutfit(stepDeps(ctx.deps), data.token, BigInt(ctx.from.id), outfit.id);
			if (outcome.kind !== 'done') {
				const text = stepRefusalText(ctx, outcome);
				await ctx.answerCallbackQuery({ text });
				await ctx.reply(text);
				return;
			}
			const title = outfit.title[ctx.locale];
			await ctx.answerCallbackQuery({ text: `${outfit.emoji} ${title}` });
			await ctx.reply(guestText(ctx.locale, 'outfitChosen', { outfit: `${outfit.emoji} ${title}` }));
		});
	});
	return composer;
}
