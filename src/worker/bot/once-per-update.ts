import { isUpdateHandled, markUpdateHandled } from '../../lib/server/guests/processed-updates.ts';
import type { BotContext } from './context.ts';

/**
 * Runs a guest step's handler unless this update was handled before (the bot's inbox hands out
 * again what a killed or stopped worker had not marked handled), and records it as handled only after the handler
 * finished — so an update cut off by a crash is handled in full when it comes again.
 */
export async function oncePerUpdate(ctx: BotContext, handle: () => Promise<void>): Promise<void> {
	const { db, clock } = ctx.deps;
	const botId = ctx.me.id;
	if (await isUpdateHandled(db, botId, ctx.update.update_id)) return;
	await handle();
	await markUpdateHandled(db, clock, botId, ctx.update.update_id);
}
