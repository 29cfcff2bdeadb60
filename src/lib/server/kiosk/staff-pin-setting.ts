import { z } from 'zod';
import { recordAudit, type Actor } from '../audit/audit-log.ts';
import { hashPassword } from '../auth/password.ts';
import type { Db } from '../db/client.ts';
import { readJsonSetting, writeSetting } from '../settings/settings.repository.ts';
import type { Clock } from '../time/clock.ts';
import { staffPinSchema } from '../../schemas/staff-pin.schema.ts';

/**
 * Where the kiosks' staff PIN comes from. An operator sets or clears it on the console's Kiosks
 * page: settings `kiosk_staff_pin` holds its argon2id hash (as operators' passwords; the PIN
 * itself is never stored), or `hash: null` for "cleared". Until someone has used the console,
 * KIOSK_STAFF_PIN from the environment is the first default; once the setting exists it wins,
 * a clearing included, so clearing in the console turns staff reset off whatever the environment says.
 */
export const STAFF_PIN_SETTING_KEY = 'kiosk_staff_pin';

const storedPinSchema = z.object({
	hash: z.string().startsWith('$argon2').nullable(),
	set_at: z.string(),
	set_by: z.string()
});

/** The PIN a kiosk's attempt is checked against: an argon2id hash from the console, or the environment's digits. */
export type StaffPinSecret = { kind: 'hash'; hash: string } | { kind: 'plain'; pin: string };

export interface StaffPinState {
	/** Whether staff reset works on the kiosks now. */
	set: boolean;
	source: 'console' | 'environment' | null;
	/** When and by whom the console last set or cleared it (null while the environment's default rules). */
	changedAt: string | null;
	changedBy: string | null;
}

export async function readStaffPinSecret(db: Db, environmentPin: string | undefined): Promise<StaffPinSecret | null> {
	const stored = await readJsonSetting(db, STAFF_PIN_SETTING_KEY, storedPinSchema);
	if (stored) return stored.hash ? { kind: 'hash', hash: stored.hash } : null;
	return environmentPin ? { kind: 'plain', pin: environmentPin } : null;
}

export async function readStaffPinState(db: Db, environmentPin: string | undefined): Promise<StaffPinState> {
	const stored = await readJsonSetting(db, STAFF_PIN_SETTING_KEY, storedPinSchema);
	if (stored)
		return {
			set: stored.hash !== null,
			source: stored.hash ? 'console' : null,
			changedAt: stored.set_at,
			changedBy: stored.set_by
		};
	return {
		set: Boolean(environmentPin),
		source: environmentPin ? 'environment' : null,
		changedAt: null,
		changedBy: null
	};
}

/** Hashes first (argon2 takes a slot and tens of milliseconds), then writes the setting and its audit row together. */
export async function setStaffPin(db: Db, clock: Clock, actor: Actor, pin: string): Promise<void> {
	const hash = await hashPassword(staffPinSchema.parse(pin));
	await writePin(db, clock, actor, hash);
}

export async function clearStaffPin(db: Db, clock: Clock, actor: Actor): Promise<void> {
	await writePin(db, clock, actor, null);
}

async function writePin(db: Db, clock: Clock, actor: Actor, hash: string | null): Promise<void> {
	const value = JSON.stringify({ hash, set_at: clock.now().toISOString(), set_by: actor.name });
	await db.$transaction(async (tx) => {
		await writeSetting(tx, clock, STAFF_PIN_SETTING_KEY, value);
		await recordAudit(tx, clock, actor, { action: hash ? 'staff_pin_set' : 'staff_pin_clear' });
	});
}
