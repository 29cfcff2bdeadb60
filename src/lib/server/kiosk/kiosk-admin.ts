import { recordAudit, type Actor } from '../audit/audit-log.ts';
import type { Db, Tx } from '../db/client.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { DomainError } from '../errors/domain-error.ts';
import type { Clock } from '../time/clock.ts';
import { kioskNameSchema } from '../../schemas/kiosk-name.schema.ts';
import { createKiosk, type Kiosk } from './kiosk-keys.ts';
import { closeKioskSessions } from './kiosk-session.ts';

/**
 * What operators do to kiosks (the console's Kiosks page; adding also `npm run kiosk:add`): each
 * step writes its audit row in the same transaction as its change. A name is unique among all
 * kiosks, revoked ones included (audit rows and old sessions name them). The step that ends a
 * guest's session at a kiosk (Reset, Revoke) closes it as `staff_reset`, as the staff PIN on
 * the tablet does: to the guest it is the same thing, the audit row tells them apart.
 */
export async function addKiosk(
	db: Db,
	clock: Clock,
	actor: Actor,
	rawName: string
): Promise<{ kiosk: Kiosk; key: string }> {
	return underUniqueName(db, rawName, async (tx, name) => {
		const created = await createKiosk(tx, clock, name);
		await recordAudit(tx, clock, actor, { action: 'kiosk_add', details: { kioskId: created.kiosk.id, name } });
		return created;
	});
}

export async function renameKiosk(
	db: Db,
	clock: Clock,
	actor: Actor,
	kioskId: number,
	rawName: string
): Promise<Kiosk> {
	return underUniqueName(db, rawName, async (tx, name) => {
		const kiosk = await findKioskRow(tx, kioskId);
		if (kiosk.name === name) return { id: kioskId, name };
		await tx.kiosk.update({ where: { id: kioskId }, data: { name } });
		await recordAudit(tx, clock, actor, { action: 'kiosk_rename', details: { kioskId, from: kiosk.name, to: name } });
		return { id: kioskId, name };
	});
}

/**
 * The key stops working at once: every kiosk request looks the key up and finds it revoked, and
 * the tablet's open streams notice within seconds and show the pairing screen. A guest session it
 * had open is closed, so the guest's bot says so at their next tap instead of waiting for a photo.
 */
export async function revokeKiosk(
	db: Db,
	clock: Clock,
	actor: Actor,
	kioskId: number
): Promise<{ closedSessions: number }> {
	return db.$transaction(async (tx) => {
		const now = clock.now().toISOString();
		const { count } = await tx.kiosk.updateMany({ where: { id: kioskId, revokedAt: null }, data: { revokedAt: now } });
		if (count === 0) {
			const kiosk = await findKioskRow(tx, kioskId);
			throw new DomainError({ code: 'KioskRevoked', name: kiosk.name });
		}
		const closedSessions = await closeKioskSessions({ db: tx, clock }, kioskId, 'staff_reset');
		await recordAudit(tx, clock, actor, { action: 'kiosk_revoke', details: { kioskId, closedSessions } });
		return { closedSessions };
	});
}

/** A stuck kiosk: its open session closes (the tablet follows it back to Start); none open is not a refusal. */
export async function resetKiosk(
	db: Db,
	clock: Clock,
	actor: Actor,
	kioskId: number
): Promise<{ closedSessions: number }> {
	return db.$transaction(async (tx) => {
		const kiosk = await findKioskRow(tx, kioskId);
		if (kiosk.revokedAt) throw new DomainError({ code: 'KioskRevoked', name: kiosk.name });
		const closedSessions = await closeKioskSessions({ db: tx, clock }, kioskId, 'staff_reset');
		await recordAudit(tx, clock, actor, { action: 'kiosk_reset', details: { kioskId, closedSessions } });
		return { closedSessions };
	});
}

async function findKioskRow(tx: Tx, kioskId: number) {
	const kiosk = await tx.kiosk.findUnique({ where: { id: kioskId }, select: { name: true, revokedAt: true } });
	if (!kiosk) throw new DomainError({ code: 'KioskMissing', kioskId });
	return kiosk;
}

/**
 * A step that gives a kiosk `rawName`: the name is checked, the step runs in one transaction, and a
 * name another kiosk holds (the unique index decides, so two operators at once cannot both win) is
 * the `KioskNameTaken` refusal, saying whether the holder is revoked.
 */
async function underUniqueName<T>(db: Db, rawName: string, step: (tx: Tx, name: string) => Promise<T>): Promise<T> {
	const name = kioskNameSchema.parse(rawName);
	try {
		return await db.$transaction((tx) => step(tx, name));
	} catch (error) {
		if (isUniqueViolation(error)) throw await nameTaken(db, name);
		throw error;
	}
}

async function nameTaken(db: Db, name: string): Promise<DomainError> {
	const holder = await db.kiosk.findUnique({ where: { name }, select: { revokedAt: true } });
	return new DomainError({ code: 'KioskNameTaken', name, revoked: Boolean(holder?.revokedAt) });
}
