import { afterEach, describe, expect, it } from 'vitest';
import { applyErasuresWith, type ErasuresToReplay } from '../../src/lib/server/backup/erasure-replay.ts';
import type { Db } from '../../src/lib/server/db/client.ts';
import { loadPseudonymKey, pseudonymForGuest } from '../../src/lib/server/lifecycle/pseudonym.ts';
import { prismaRunner } from '../../src/lib/server/lifecycle/sql-runner.ts';
import { createTestDb } from '../helpers/test-db.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { insertGuest } from './lifecycle-fixtures.ts';

const AT = '2027-01-05T09:00:00.000Z';

/** A restore replays later erasures on the restored copy; the retired-set list follows them. */
describe('retired sticker sets when a restore replays erasures', () => {
	const tempDir = useTempDir('retired-sets-replay-');
	let db: Db | undefined;
	afterEach(async () => db?.$disconnect());

	const replay = (key: Buffer, id: bigint, reason: string): ErasuresToReplay => ({
		guests: [{ subject: pseudonymForGuest(key, id), reason, erasedAt: AT, packNameHashes: null, fromLedger: true }],
		leads: []
	});

	it('a replayed retention erasure lists the guest’s sets; a replayed /forget takes out a guest known only from the list', async () => {
		const dir = tempDir();
		({ db } = await createTestDb(dir));
		const key = loadPseudonymKey(dir);
		await insertGuest(db, { id: 700n, at: AT, packName: 'u700_1_by_sticker_kiosk_bot' });
		// Reset before the backup; their rows and audit entries are gone, only the list names them.
		await db.retiredStickerSet.create({
			data: { name: 'u800_1_by_sticker_kiosk_bot', telegramUserId: 800n, retiredAt: AT, reason: 'reset_user' }
		});

		await db.$transaction((tx) => applyErasuresWith(prismaRunner(tx), replay(key, 700n, 'retention'), key));
		expect(await db.user.count()).toBe(0);
		expect(
			await db.retiredStickerSet.findMany({ where: { telegramUserId: 700n }, select: { name: true, reason: true } })
		).toEqual([{ name: 'u700_1_by_sticker_kiosk_bot', reason: 'retention' }]);

		await db.$transaction((tx) => applyErasuresWith(prismaRunner(tx), replay(key, 800n, 'forget'), key));
		expect(await db.retiredStickerSet.count({ where: { telegramUserId: 800n } })).toBe(0);
		expect(await db.retiredStickerSet.count()).toBe(1);
	});
});
