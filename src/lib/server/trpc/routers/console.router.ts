import { z } from 'zod';
import { recordAudit } from '../../audit/audit-log.ts';
import { changeFeedFor } from '../../console/change-feed.ts';
import { readLiveSnapshot, type LiveSettings } from '../../console/live-snapshot.ts';
import { endMaintenance, readMaintenance, startMaintenance } from '../../settings/maintenance.ts';
import { DomainError } from '../../errors/domain-error.ts';
import { operatorProcedure, router, type TrpcContext } from '../init.ts';
import { watchLive } from '../live-view.ts';

/** The Live page and the pause switch. */
export function liveSettingsFrom(config: TrpcContext['config']): LiveSettings {
	return {
		deadlineMinutes: config.JOB_HARD_DEADLINE_MINUTES ?? 20,
		imageQuotaPerDay: config.IMAGE_RPD_QUOTA ? config.IMAGE_RPD_QUOTA : null,
		imageWarnAt: config.RPD_WARN_THRESHOLD ?? null
	};
}

export const consoleRouter = router({
	live: operatorProcedure.query(({ ctx }) => readLiveSnapshot(ctx.db, ctx.clock, liveSettingsFrom(ctx.config))),

	watchLive: operatorProcedure.subscription(({ ctx, signal }) =>
		watchLive(ctx, signal, changeFeedFor(ctx.db, ctx.logger), () => readLiveSnapshot(ctx.db, ctx.clock, liveSettingsFrom(ctx.config)))
	),

	/** Pause: the kiosk refuses Start, the bot answers guests politely, the queue stops claiming. */
	pause: operatorProcedure.input(z.object({ reason: z.string().trim().max(300).default('') })).mutation(async ({ ctx, input }) => {
		const reason = input.reason || `paused by ${ctx.actor.name} in the console`;
		return ctx.db.$transaction(async (tx) => {
			if (await readMaintenance(tx)) throw new DomainError({ code: 'QueueAlreadyPaused' });
			const maintenance = await startMaintenance(tx, ctx.clock, 'admin', reason);
			await recordAudit(tx, ctx.clock, ctx.actor, { action: 'pause', details: { reason } });
			return maintenance;
		});
	}),

	resume: operatorProcedure.mutation(async ({ ctx }) => {
		return ctx.db.$transaction(async (tx) => {
			const previous = await readMaintenance(tx);
			if (!previous) throw new DomainError({ code: 'QueueNotPaused' });
			await endMaintenance(tx);
			await recordAudit(tx, ctx.clock, ctx.actor, { action: 'resume', details: { was: previous } });
			return { resumed: true };
		});
	})
});
