import { Composer } from 'grammy';
import { recordAudit } from '../../../lib/server/audit/audit-log.ts';
import { endMaintenance, readMaintenance, startMaintenance } from '../../../lib/server/settings/maintenance.ts';
import type { BotContext } from '../context.ts';
import { adminPauseText } from '../../../lib/i18n/admin-pause.ts';

/**
 * /pause [reason] and /resume for the ids in ADMIN_TELEGRAM_IDS (maintenance with source 'admin',
 * the same switch as the console's Pause). Anyone else falls through to the other features and
 * gets nothing privileged. Each change is written to audit_log as `telegram:<id>`.
 */
export function adminPauseFeature(): Composer<BotContext> {
	const composer = new Composer<BotContext>();
	const admins = composer.chatType('private').filter((ctx) => ctx.deps.config.ADMIN_TELEGRAM_IDS.includes(BigInt(ctx.from.id)));

	admins.command('pause', async (ctx) => {
		const { db, clock } = ctx.deps;
		const reason = ctx.match.trim().slice(0, 300) || adminPauseText(ctx.locale, 'defaultReason');
		const outcome = await db.$transaction(async (tx) => {
			const current = await readMaintenance(tx);
			if (current) return { already: current };
			await startMaintenance(tx, clock, 'admin', reason);
			await recordAudit(tx, clock, { name: `telegram:${ctx.from.id}`, ip: null }, { action: 'pause', details: { reason, via: 'bot' } });
			return { already: null };
		});
		if (outcome.already) {
			await ctx.reply(adminPauseText(ctx.locale, 'alreadyPaused', { at: outcome.already.at, reason: outcome.already.reason }));
			return;
		}
		await ctx.reply(adminPauseText(ctx.locale, 'paused'));
	});

	admins.command('resume', async (ctx) => {
		const { db, clock } = ctx.deps;
		const resumed = await db.$transaction(async (tx) => {
			const current = await readMaintenance(tx);
			if (!current) return false;
			await endMaintenance(tx);
			await recordAudit(tx, clock, { name: `telegram:${ctx.from.id}`, ip: null }, { action: 'resume', details: { was: current, via: 'bot' } });
			return true;
		});
		await ctx.reply(adminPauseText(ctx.locale, resumed ? 'resumed' : 'notPaused'));
	});

	return composer;
}
