import type { Config } from '../config/config.ts';
import type { ClosedReason, OpenStatus, SessionStatus } from '../../schemas/kiosk.ts';
import { OPEN_STATUSES } from '../../schemas/kiosk.ts';
import { SECOND } from '../time/clock.ts';

/**
 * The two session clocks of a kiosk session. Both count from `updated_at`, the moment of the last
 * step (for an idle session that is its creation): a QR nobody scanned expires as `qr_timeout`, a
 * guest who stalls after linking as `idle_timeout`. The server enforces them, never the browser.
 */
export interface SessionTimeouts {
	qrTimeoutMs: number;
	idleTimeoutMs: number;
}

export function sessionTimeoutsFrom(
	config: Pick<Config, 'KIOSK_QR_TIMEOUT_SECONDS' | 'KIOSK_IDLE_TIMEOUT_SECONDS'>
): SessionTimeouts {
	return {
		qrTimeoutMs: config.KIOSK_QR_TIMEOUT_SECONDS * SECOND,
		idleTimeoutMs: config.KIOSK_IDLE_TIMEOUT_SECONDS * SECOND
	};
}

export function isOpenStatus(status: string): status is OpenStatus {
	return (OPEN_STATUSES as readonly string[]).includes(status);
}

/** How long a session in this status may sit still. */
export function allowedStillMs(status: OpenStatus, timeouts: SessionTimeouts): number {
	return status === 'idle' ? timeouts.qrTimeoutMs : timeouts.idleTimeoutMs;
}

export function timeoutReasonFor(status: OpenStatus): ClosedReason {
	return status === 'idle' ? 'qr_timeout' : 'idle_timeout';
}

/** The moment this session times out, or null when its status has no clock. */
export function sessionDeadline(
	session: { status: string; updatedAt: string },
	timeouts: SessionTimeouts
): Date | null {
	if (!isOpenStatus(session.status)) return null;
	return new Date(new Date(session.updatedAt).getTime() + allowedStillMs(session.status, timeouts));
}

/** A session in `status` whose `updated_at` is at or before this moment (ISO text) has timed out at `now`. */
export function stillOpenSince(status: SessionStatus, now: Date, timeouts: SessionTimeouts): string {
	const limit = isOpenStatus(status) ? allowedStillMs(status, timeouts) : 0;
	return new Date(now.getTime() - limit).toISOString();
}

export function isOverdue(
	session: { status: string; updatedAt: string },
	now: Date,
	timeouts: SessionTimeouts
): boolean {
	const deadline = sessionDeadline(session, timeouts);
	return deadline !== null && deadline.getTime() <= now.getTime();
}
