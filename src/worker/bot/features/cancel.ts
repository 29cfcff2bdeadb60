import { Composer } from 'grammy';
import { cancelGuestSessions } from '../../../lib/server/guests/guest-steps.ts';
import type { BotContext } from '../context.ts';
import { oncePerUpdate } from '../once-per-update.ts';
import { guestText } from '../../../lib/i18n/guest-flow.ts';

/** /cancel: the guest stops their open kiosk session (closed_reason = cancel); the kiosk returns to Start. */
export function cancelFeature(): Composer<BotContext> {
	const composer = new Composer<BotContext>();
	composer.chatType('private').command('cancel', async (ctx) => {
		await oncePerUpdate(ctx, async () => {
			const outcome = await cancelGuestSessions(ctx.deps, BigInt(ctx.from.id));
			await ctx.reply(guestText(ctx.locale, outcome.kind === 'cancelled' ? 'cancelled' : 'nothingToCancel'));
		});
	});
	return composer;
}
