import { z } from 'zod';
import { changeFeedFor } from '../../console/change-feed.ts';
import { readLiveSnapshot, type LiveSettings } from '../../console/live-snapshot.ts';
import { GUEST_NOTE_MAX } from '../../settings/maintenance.ts';
import { pauseByPerson, resumeByPerson } from '../../settings/operator-pause.ts';
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
		watchLive(ctx, signal, changeFeedFor(ctx.db, ctx.logger), () =>
			readLiveSnapshot(ctx.db, ctx.clock, liveSettingsFrom(ctx.config))
		)
	),

	/** Pause: the kiosk refuses Start, the bot answers guests politely, the queue stops claiming. */
	pause: operatorProcedure
		.input(
			z.object({
				reason: z.string().trim().max(300).default(''),
				guestNote: z.string().trim().max(GUEST_NOTE_MAX).default('')
			})
		)
		.mutation(async ({ ctx, input }) => {
			const reason = input.reason || `paused by ${ctx.actor.name} in the console`;
			const outcome = await pauseByPerson(ctx.db, ctx.clock, ctx.actor, 'console', reason, input.guestNote);
			if ('alreadyPaused' in outcome) throw new DomainError({ code: 'QueueAlreadyPaused' });
			return outcome.paused;
		}),

	resume: operatorProcedure.mutation(async ({ ctx }) => {
		const outcome = await resumeByPerson(ctx.db, ctx.clock, ctx.actor, 'console');
		if ('notPaused' in outcome) throw new DomainError({ code: 'QueueNotPaused' });
		return { resumed: true };
	})
});
