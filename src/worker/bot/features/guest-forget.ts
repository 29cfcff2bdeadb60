import { Composer, InlineKeyboard } from 'grammy';
import { eraseGuest, GuestBusyError } from '../../../lib/server/lifecycle/guest-erasure.ts';
import { hasActiveJob, isKnownGuest, readGuestFootprint } from '../../../lib/server/lifecycle/guest-rows.ts';
import { loadPseudonymKey } from '../../../lib/server/lifecycle/pseudonym.ts';
import { prismaRunner } from '../../../lib/server/lifecycle/sql-runner.ts';
import type { TelegramApi } from '../../../lib/server/telegram/api.ts';
import { isStickerSetMissing } from '../../../lib/server/telegram/errors.ts';
import type { BotContext, BotDeps } from '../context.ts';
import { forgetText } from '../../../lib/i18n/guest-forget.ts';

const CONFIRM = 'forget:yes';
const KEEP = 'forget:no';

type ForgetOutcome = 'done' | 'nothing' | 'busy' | 'failed';

/**
 * /forget for guests (a guest may erase themselves at any time): asks first, then deletes their sticker sets in Telegram,
 * their files and their rows, and says so in their language. Pressing "yes" twice is harmless:
 * the second press finds nothing left. Registered before the maintenance pause on purpose — a
 * guest's erasure does not wait for the image provider.
 */
export function guestForgetFeature(): Composer<BotContext> {
	const composer = new Composer<BotContext>();
	const privateChats = composer.chatType('private');
	privateChats.command('forget', async (ctx) => {
		const keyboard = new InlineKeyboard().text(forgetText(ctx.locale, 'yes'), CONFIRM).row().text(forgetText(ctx.locale, 'no'), KEEP);
		await ctx.reply(forgetText(ctx.locale, 'ask'), { reply_markup: keyboard });
	});
	privateChats.callbackQuery(KEEP, async (ctx) => {
		await ctx.answerCallbackQuery();
		await ctx.editMessageText(forgetText(ctx.locale, 'kept'));
	});
	privateChats.callbackQuery(CONFIRM, async (ctx) => {
		await ctx.answerCallbackQuery();
		const outcome = await forgetGuest(ctx.deps, ctx.api, BigInt(ctx.from.id));
		await ctx.editMessageText(forgetText(ctx.locale, outcome));
	});
	return composer;
}

/** The rule behind the button, with its dependencies passed in (tests call it directly too). */
export async function forgetGuest(deps: BotDeps, api: Pick<TelegramApi, 'deleteStickerSet'>, telegramUserId: bigint): Promise<ForgetOutcome> {
	const sql = prismaRunner(deps.db);
	const footprint = await readGuestFootprint(sql, telegramUserId);
	const known = await isKnownGuest(sql, telegramUserId);
	if (!known && footprint.sessionTokens.length === 0 && footprint.jobIds.length === 0) return 'nothing';
	if (await hasActiveJob(sql, telegramUserId)) return 'busy';
	for (const name of footprint.packNames) {
		if (!(await deleteStickerSet(deps, api, name))) return 'failed';
	}
	try {
		await eraseGuest({ db: deps.db, clock: deps.clock, dataDir: deps.config.dataDir, fileStore: deps.fileStore, pseudonymKey: loadPseudonymKey(deps.config.dataDir) }, telegramUserId, 'forget');
	} catch (error) {
		if (error instanceof GuestBusyError) return 'busy';
		throw error;
	}
	deps.logger.info({ packs: footprint.packNames.length }, 'guest erased at their request (/forget)');
	return 'done';
}

/** True when the set is gone (deleted now, or already gone: Telegram answers STICKERSET_INVALID). */
async function deleteStickerSet(deps: BotDeps, api: Pick<TelegramApi, 'deleteStickerSet'>, name: string): Promise<boolean> {
	try {
		await api.deleteStickerSet(name);
		return true;
	} catch (error) {
		if (isStickerSetMissing(error)) return true;
		deps.logger.warn({ err: error }, 'could not delete a sticker set during /forget');
		return false;
	}
}
