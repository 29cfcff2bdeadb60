import { Composer } from 'grammy';
import { linkGuest } from '../../../lib/server/guests/guest-link.ts';
import { sessionTokenSchema } from '../../../lib/schemas/kiosk.ts';
import type { BotContext } from '../context.ts';
import { replyToLink, stepDeps } from '../guest-replies.ts';
import { oncePerUpdate } from '../once-per-update.ts';
import { guestText } from '../../../lib/i18n/guest-flow.ts';

/**
 * `/start <token>` from a kiosk QR code: saves the guest, applies the pack limit, links the session
 * and asks for consent (or, for a guest who consented before, shows the outfits). A bare /start is
 * welcome.ts's; anything that is not a session token gets a clear sentence and changes nothing.
 */
export function guestStartFeature(): Composer<BotContext> {
	const composer = new Composer<BotContext>();
	composer.chatType('private').command('start', async (ctx, next) => {
		const payload = ctx.match.trim();
		if (payload === '') return next();
		await oncePerUpdate(ctx, () => startWithToken(ctx, payload));
	});
	return composer;
}

/** What a kiosk token does: link the session and ask the next question (or say why not). */
async function startWithToken(
	ctx: BotContext & { from: NonNullable<BotContext['from']> },
	payload: string
): Promise<void> {
	const token = sessionTokenSchema.safeParse(payload);
	if (!token.success) {
		await ctx.reply(guestText(ctx.locale, 'tokenUnknown'));
		return;
	}
	const profile = {
		telegramUserId: BigInt(ctx.from.id),
		firstName: ctx.from.first_name,
		lastName: ctx.from.last_name ?? null,
		username: ctx.from.username ?? null,
		// The language the bot speaks to them: Telegram's when it is ours, else the default language in
		// force (console Settings) — kept for the worker's notices, so they speak it too.
		languageCode: ctx.locale
	};
	const outcome = await linkGuest(stepDeps(ctx.deps), token.data, profile);
	ctx.deps.logger.info({ outcome: outcome.kind }, 'guest /start with a kiosk token');
	await replyToLink(ctx, token.data, outcome);
}
