import { GrammyError, InlineKeyboard, InputFile } from 'grammy';
import { cataloguePicture } from '../../lib/server/events/catalogue-picture.ts';
import {
	contentHash,
	findTelegramFileId,
	forgetTelegramFileId,
	rememberTelegramFileId
} from '../../lib/server/events/media-files.repository.ts';
import { offeredCatalogue } from '../../lib/server/events/offered-catalogue.ts';
import type { LinkOutcome } from '../../lib/server/guests/guest-link.ts';
import type { StepOutcome } from '../../lib/server/guests/guest-steps.ts';
import type { StepRefusal } from '../../lib/server/guests/guest-outcomes.ts';
import { sessionTimeoutsFrom } from '../../lib/server/guests/session-clock.ts';
import { packLink } from '../../lib/server/jobs/delivery/pack-name.ts';
import type { BotContext, BotDeps } from './context.ts';
import { consentCallback, outfitCallback } from './guest-callbacks.ts';
import { closedText, guestText } from '../../lib/i18n/guest-flow.ts';

/** The guest flow's messages, shared by /start, the consent button and the outfit buttons. */
export function stepDeps(deps: BotDeps) {
	const packsPerGuest = async () => (await deps.runtime.read()).packsPerGuest;
	return { db: deps.db, clock: deps.clock, timeouts: sessionTimeoutsFrom(deps.config), packsPerGuest };
}

export async function sendConsentPrompt(ctx: BotContext, token: string): Promise<void> {
	const name = ctx.from?.first_name ?? '';
	const keyboard = new InlineKeyboard().text(guestText(ctx.locale, 'consentButton'), consentCallback(token));
	await ctx.reply(guestText(ctx.locale, 'consentPrompt', { name }), { reply_markup: keyboard });
}

/**
 * One picture of the guest's event's numbered catalogue, with a button per outfit. The picture is
 * uploaded once per published version; later guests get it by Telegram file_id.
 */
export async function sendCatalogue(ctx: BotContext, token: string): Promise<void> {
	const { db, clock, fileStore } = ctx.deps;
	const catalogue = await offeredCatalogue(db, token);
	const keyboard = new InlineKeyboard();
	catalogue.outfits.forEach((outfit, index) => {
		keyboard.text(`${index + 1}. ${outfit.emoji} ${outfit.title[ctx.locale]}`, outfitCallback(outfit.id, token));
		if (index % 2 === 1) keyboard.row();
	});
	const options = { caption: guestText(ctx.locale, 'chooseOutfit'), reply_markup: keyboard };
	const sheet = await cataloguePicture(fileStore, catalogue);
	const hash = contentHash(sheet);
	const fileId = await findTelegramFileId(db, hash);
	if (fileId) {
		const sent = await ctx.replyWithPhoto(fileId, options).then(
			() => true,
			async (error: unknown) => {
				// A file_id this bot cannot use (another bot token, say): forget it and upload again.
				if (!(error instanceof GrammyError) || error.error_code !== 400) throw error;
				await forgetTelegramFileId(db, hash);
				return false;
			}
		);
		if (sent) return;
	}
	const message = await ctx.replyWithPhoto(new InputFile(sheet, 'outfits.jpg'), options);
	const largest = message.photo?.at(-1)?.file_id;
	if (largest) await rememberTelegramFileId(db, clock, hash, 'catalogue', largest);
}

export function refusalText(ctx: BotContext, refusal: StepRefusal): string {
	switch (refusal.kind) {
		case 'unknown':
			return guestText(ctx.locale, 'tokenUnknown');
		case 'taken':
			return guestText(ctx.locale, 'tokenTaken');
		case 'used':
			return guestText(ctx.locale, 'tokenUsed');
		case 'closed':
			if (refusal.notice === 'pack_in_progress') return guestText(ctx.locale, 'packInProgress');
			if (refusal.notice === 'pack_ready') return guestText(ctx.locale, 'packReadyNoLink');
			return closedText(ctx.locale, refusal.reason);
	}
}

/** Answers `/start <token>` with the next step, or one clear sentence why not. */
export async function replyToLink(ctx: BotContext, token: string, outcome: LinkOutcome): Promise<void> {
	switch (outcome.kind) {
		case 'linked':
		case 'already':
			if (outcome.step === 'linked') return sendConsentPrompt(ctx, token);
			if (outcome.step === 'consented') return sendCatalogue(ctx, token);
			await ctx.reply(guestText(ctx.locale, 'lookAtKiosk'));
			return;
		case 'pack_in_progress':
			await ctx.reply(guestText(ctx.locale, 'packInProgress'));
			return;
		case 'pack_ready':
			await ctx.reply(
				outcome.packName
					? guestText(ctx.locale, 'packReady', { link: packLink(outcome.packName) })
					: guestText(ctx.locale, 'packReadyNoLink')
			);
			return;
		default:
			await ctx.reply(refusalText(ctx, outcome));
	}
}

/** What a button press that did not move the session tells the guest. */
export function stepRefusalText(ctx: BotContext, outcome: Exclude<StepOutcome, { kind: 'done' }>): string {
	if (outcome.kind === 'too_early') return guestText(ctx.locale, 'tooEarly');
	if (outcome.kind === 'already')
		return guestText(ctx.locale, outcome.step === 'linked' ? 'tooEarly' : 'alreadyConsented');
	return refusalText(ctx, outcome);
}
