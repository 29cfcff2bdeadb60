import { recordAudit, type Actor } from '../audit/audit-log.ts';
import type { Db } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';
import { endMaintenance, readMaintenance, startMaintenance, type Maintenance } from './maintenance.ts';

/**
 * A person's pause and resume of the whole kiosk (maintenance with source 'admin'): the console's
 * Pause switch and the bot admin's /pause and /resume both come here, so the change and its
 * audit row are written in one transaction the same way from either door. `via` says which door
 * (kept in the audit details); the refusal is an answer, each caller words it its own way.
 */
export type PauseOutcome = { paused: Maintenance } | { alreadyPaused: Maintenance };
export type ResumeOutcome = { resumed: Maintenance } | { notPaused: true };
export type PauseDoor = 'console' | 'bot';

export async function pauseByPerson(
	db: Db,
	clock: Clock,
	actor: Actor,
	via: PauseDoor,
	reason: string,
	guestNote = ''
): Promise<PauseOutcome> {
	return db.$transaction(async (tx) => {
		const current = await readMaintenance(tx);
		if (current) return { alreadyPaused: current };
		const paused = await startMaintenance(tx, clock, 'admin', reason, guestNote);
		await recordAudit(tx, clock, actor, {
			action: 'pause',
			details: { reason: paused.reason, via, ...(paused.guestNote ? { guestNote: paused.guestNote } : {}) }
		});
		return { paused };
	});
}

export async function resumeByPerson(db: Db, clock: Clock, actor: Actor, via: PauseDoor): Promise<ResumeOutcome> {
	return db.$transaction(async (tx) => {
		const current = await readMaintenance(tx);
		if (!current) return { notPaused: true as const };
		await endMaintenance(tx);
		await recordAudit(tx, clock, actor, { action: 'resume', details: { was: current, via } });
		return { resumed: current };
	});
}
