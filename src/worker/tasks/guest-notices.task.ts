import { deliverGuestNotices, type GuestNoticeDeps } from '../../lib/server/telegram/guest-notices.ts';
import { refreshGuestStatuses, type GuestStatusDeps } from '../../lib/server/telegram/guest-status.ts';
import type { ScheduledTask } from '../scheduler.ts';

/**
 * The guest notices outbox and the live status messages. The web process never calls Telegram:
 * a job queued by a kiosk upload carries its "Generating…" notice in guest_notices, and this
 * task (every 500 ms, so the guest hears within a second) sends what is due — notices queued by
 * the deadline pass and by failures too, and any the job loop could not send at once.
 */
export const GUEST_NOTICES_EVERY_MS = 500;
/** Status edits are paced per guest (EditPacer); a pass a second is enough to follow them. */
export const GUEST_STATUS_EVERY_MS = 1_000;

export function guestNoticesTask(deps: GuestNoticeDeps, stopping: AbortSignal): ScheduledTask {
	return {
		name: 'guest-notices',
		everyMs: GUEST_NOTICES_EVERY_MS,
		runAtStart: true,
		run: async () => {
			await deliverGuestNotices(deps, { shouldStop: () => stopping.aborted });
		}
	};
}

export function guestStatusTask(deps: GuestStatusDeps): ScheduledTask {
	return {
		name: 'guest-status',
		everyMs: GUEST_STATUS_EVERY_MS,
		runAtStart: true,
		run: async () => {
			await refreshGuestStatuses(deps);
		}
	};
}
