import { z } from 'zod';
import type { Db, Tx } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';
import { deleteSetting, parseJsonSetting, readSetting, writeSetting } from './settings.repository.ts';

export const GUEST_NOTE_MAX = 120;

/**
 * `settings.maintenance`: while the row exists the kiosk refuses Start, the bot answers with a
 * pause message and the queue stops claiming. `auto` = set by the worker (provider out of funds),
 * `config` = set by the worker (a configured model the provider does not serve; lifted by the worker
 * when its model check passes again), `admin` = an operator's or admin's pause. Resume deletes the row.
 */
export const maintenanceSchema = z.object({
	source: z.enum(['auto', 'admin', 'config']),
	reason: z.string().max(500),
	at: z.string(),
	/**
	 * An operator's words for guests ("Back at 14:00"), shown on the kiosks and to guests in the
	 * bot. Apart from `reason`, which is for the staff and never reaches a guest.
	 */
	guestNote: z.string().max(GUEST_NOTE_MAX).optional()
});
export type Maintenance = z.infer<typeof maintenanceSchema>;

const KEY = 'maintenance';

export async function readMaintenance(db: Db | Tx): Promise<Maintenance | null> {
	const raw = await readSetting(db, KEY);
	if (raw === null) return null;
	// A row we cannot read still means "paused": failing open would let guests in during an outage.
	return (
		parseJsonSetting(raw, maintenanceSchema) ?? { source: 'admin', reason: 'unreadable maintenance setting', at: '' }
	);
}

export async function startMaintenance(
	db: Db | Tx,
	clock: Clock,
	source: Maintenance['source'],
	reason: string,
	guestNote = ''
): Promise<Maintenance> {
	const note = guestNote.trim().slice(0, GUEST_NOTE_MAX);
	const value: Maintenance = {
		source,
		reason: reason.slice(0, 500),
		at: clock.now().toISOString(),
		...(note ? { guestNote: note } : {})
	};
	await writeSetting(db, clock, KEY, JSON.stringify(value));
	return value;
}

export async function endMaintenance(db: Db | Tx): Promise<boolean> {
	return deleteSetting(db, KEY);
}
