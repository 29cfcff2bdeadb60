import { Composer, InlineKeyboard } from 'grammy';
import { eraseGuest, GuestBusyError } from '../../../lib/server/lifecycle/guest-erasure.ts';
import { hasActiveJob, isKnownGuest, readGuestFootprint } from '../../../lib/server/lifecycle/guest-rows.ts';
import { loadPseudonymKey } from '../../../lib/server/lifecycle/pseudonym.ts';
import { readRetiredStickerSets } from '../../../lib/server/lifecycle/retired-sticker-sets.ts';
import { prismaRunner } from '../../../lib/server/lifecycle/sql-runner.ts';
import { packBotUsername } from '../../../lib/server/jobs/delivery/pack-name.ts';
import { queueAdminAlerts } from '../../../lib/server/telegram/admin-alerts.repository.ts';
import { isStickerSetMissing } from '../../../lib/server/telegram/errors.ts';
import { ADMIN_ALERTS } from '../../../lib/i18n/admin-alerts.ts';
import type { BotContext, BotDeps } from '../context.ts';
import { forgetText } from '../../../lib/i18n/guest-forget.ts';
import type { Locale } from '../../../lib/i18n/locale.ts';
import { GrammyError } from 'grammy';
import { botSetDeleters, type SetDeleter, type SetDeleterClient } from './sticker-set-deleters.ts';

const CONFIRM = 'forget:yes';
const KEEP = 'forget:no';

/**
 * `done` says how many sticker sets were deleted in Telegram just now (0: none was left), and which
 * are still there because no bot the worker can use made them (`setsLeft`; the admins are told).
 */
export type ForgetOutcome =
	{ kind: 'done'; setsDeleted: number; setsLeft: string[] } | { kind: 'nothing' | 'busy' | 'failed' };

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
		const keyboard = new InlineKeyboard()
			.text(forgetText(ctx.locale, 'yes'), CONFIRM)
			.row()
			.text(forgetText(ctx.locale, 'no'), KEEP);
		await ctx.reply(forgetText(ctx.locale, 'ask'), { reply_markup: keyboard });
	});
	privateChats.callbackQuery(KEEP, async (ctx) => {
		await ctx.answerCallbackQuery();
		await ctx.editMessageText(forgetText(ctx.locale, 'kept'));
	});
	privateChats.callbackQuery(CONFIRM, async (ctx) => {
		await ctx.answerCallbackQuery();
		const deleters = botSetDeleters(ctx.deps, ctx.api, ctx.me.username);
		const outcome = await forgetGuest(ctx.deps, deleters, BigInt(ctx.from.id));
		await ctx.editMessageText(describeOutcome(ctx.locale, outcome));
	});
	return composer;
}

export function describeOutcome(locale: Locale, outcome: ForgetOutcome): string {
	if (outcome.kind !== 'done') return forgetText(locale, outcome.kind);
	if (outcome.setsLeft.length > 0)
		return forgetText(locale, 'doneSetsLeft', { sets: outcome.setsDeleted, left: outcome.setsLeft.length });
	return outcome.setsDeleted > 0
		? forgetText(locale, 'done', { sets: outcome.setsDeleted })
		: forgetText(locale, 'doneNoSets');
}

/**
 * The rule behind the button, with its dependencies passed in (tests call it directly too). The
 * sets come from the guest's rows and from retired_sticker_sets, which keeps them after an operator's
 * reset or the retention erasure took the rows.
 */
export async function forgetGuest(deps: BotDeps, deleters: SetDeleter, telegramUserId: bigint): Promise<ForgetOutcome> {
	const sql = prismaRunner(deps.db);
	const footprint = await readGuestFootprint(sql, telegramUserId);
	const retired = await readRetiredStickerSets(sql, telegramUserId);
	const known = await isKnownGuest(sql, telegramUserId);
	if (!known && footprint.sessionTokens.length === 0 && footprint.jobIds.length === 0 && retired.length === 0)
		return { kind: 'nothing' };
	if (await hasActiveJob(sql, telegramUserId)) return { kind: 'busy' };
	let setsDeleted = 0;
	const setsLeft: string[] = [];
	for (const name of [...new Set([...footprint.packNames, ...retired])]) {
		const result = await deleteStickerSet(deps, await deleters(name), name);
		if (result === 'failed') return { kind: 'failed' };
		if (result === 'deleted') setsDeleted++;
		if (result === 'stranded') setsLeft.push(name);
	}
	try {
		await eraseGuest(
			{
				db: deps.db,
				clock: deps.clock,
				fileStore: deps.fileStore,
				pseudonymKey: loadPseudonymKey(deps.config.dataDir)
			},
			telegramUserId,
			'forget'
		);
	} catch (error) {
		if (error instanceof GuestBusyError) return { kind: 'busy' };
		throw error;
	}
	deps.logger.info(
		{ packs: footprint.packNames.length, retiredPacks: retired.length, setsDeleted, setsLeft: setsLeft.length },
		'guest erased at their request (/forget)'
	);
	await tellAdminsAboutSetsLeft(deps, setsLeft);
	return { kind: 'done', setsDeleted, setsLeft };
}

/**
 * Sets only an old bot could delete: the erasure goes on (the guest asked for it), and the admins
 * get the names, one alert per old bot, queued in the admin alerts outbox (sent by its task).
 */
async function tellAdminsAboutSetsLeft(deps: BotDeps, setsLeft: readonly string[]): Promise<void> {
	if (setsLeft.length === 0) return;
	deps.logger.error({ sets: setsLeft }, 'sticker sets of an old bot were left in Telegram after /forget');
	const byBot = new Map<string, string[]>();
	for (const name of setsLeft) {
		const bot = packBotUsername(name) ?? 'unknown';
		byBot.set(bot, [...(byBot.get(bot) ?? []), name]);
	}
	const { adminIds } = await deps.runtime.read();
	for (const [bot, names] of byBot)
		await queueAdminAlerts(deps.db, deps.clock.now(), adminIds, ADMIN_ALERTS.setsLeftWithOldBot(bot, names));
}

/**
 * `missing` when Telegram no longer has the set (deleted before, by us or by the guest:
 * STICKERSET_INVALID from the bot that made it); `stranded` when no bot we can use made it (no
 * token kept for it, or that bot's token no longer works: 401).
 */
async function deleteStickerSet(
	deps: BotDeps,
	client: SetDeleterClient | null,
	name: string
): Promise<'deleted' | 'missing' | 'failed' | 'stranded'> {
	if (!client) return 'stranded';
	try {
		await client.deleteStickerSet(name);
		return 'deleted';
	} catch (error) {
		if (isStickerSetMissing(error)) return 'missing';
		if (error instanceof GrammyError && error.error_code === 401) return 'stranded';
		deps.logger.warn({ err: error }, 'could not delete a sticker set during /forget');
		return 'failed';
	}
}
