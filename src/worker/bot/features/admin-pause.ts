import { Composer } from 'grammy';
import type { Actor } from '../../../lib/server/audit/audit-log.ts';
import { pauseByPerson, resumeByPerson } from '../../../lib/server/settings/operator-pause.ts';
import type { BotContext } from '../context.ts';
import { adminPauseText } from '../../../lib/i18n/admin-pause.ts';

/**
 * /pause [reason] and /resume for the admin ids in force (console Settings, else ADMIN_TELEGRAM_IDS) (maintenance with source 'admin',
 * the same switch as the console's Pause). Anyone else falls through to the other features and
 * gets nothing privileged. Each change is written to audit_log as `telegram:<id>`.
 */
export function adminPauseFeature(): Composer<BotContext> {
	const composer = new Composer<BotContext>();
	const admins = composer
		.chatType('private')
		.filter(async (ctx) => (await ctx.deps.runtime.read()).adminIds.includes(BigInt(ctx.from.id)));

	admins.command('pause', async (ctx) => {
		const { db, clock } = ctx.deps;
		const reason = ctx.match.trim().slice(0, 300) || adminPauseText(ctx.locale, 'defaultReason');
		const outcome = await pauseByPerson(db, clock, botAdmin(ctx.from.id), 'bot', reason);
		if ('alreadyPaused' in outcome) {
			await ctx.reply(
				adminPauseText(ctx.locale, 'alreadyPaused', {
					at: outcome.alreadyPaused.at,
					reason: outcome.alreadyPaused.reason
				})
			);
			return;
		}
		await ctx.reply(adminPauseText(ctx.locale, 'paused'));
	});

	admins.command('resume', async (ctx) => {
		const { db, clock } = ctx.deps;
		const outcome = await resumeByPerson(db, clock, botAdmin(ctx.from.id), 'bot');
		await ctx.reply(adminPauseText(ctx.locale, 'resumed' in outcome ? 'resumed' : 'notPaused'));
	});

	return composer;
}

/** A bot admin in audit_log: `telegram:<id>`, no address (Telegram does not tell us one). */
function botAdmin(telegramId: number): Actor {
	return { name: `telegram:${telegramId}`, ip: null };
}
