import type { Db } from '../db/client.ts';
import { fingerprintPackName, pseudonymForGuest } from './pseudonym.ts';

/**
 * The never-reuse rule after an erasure: a guest who comes back must not get the name of a pack
 * they had before (clients cache installed sets by name, and Telegram refuses recently deleted
 * names). Their old names survive only as keyed fingerprints in the erasure ledger, filed under
 * their pseudonym. Generation calls this while choosing a name, next to its checks of users.pack_name,
 * jobs.pack_name and reset entries still in clear in audit_log.
 */
export async function isPackNameRetired(
	db: Db,
	key: Buffer,
	telegramUserId: bigint,
	packName: string
): Promise<boolean> {
	const entries = await db.erasure.findMany({
		where: { kind: 'guest', subject: pseudonymForGuest(key, telegramUserId), packNameHashes: { not: null } },
		select: { packNameHashes: true }
	});
	const wanted = fingerprintPackName(key, packName);
	return entries.some((entry) => (JSON.parse(entry.packNameHashes ?? '[]') as string[]).includes(wanted));
}
