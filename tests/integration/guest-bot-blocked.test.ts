import { describe, expect, it } from 'vitest';
import { isBotBlocked, markBotBlocked } from '../../src/lib/server/guests/bot-blocked.ts';
import { saveGuestProfile } from '../../src/lib/server/guests/guest-profile.ts';
import { deleteGuestRows, readGuestFootprint } from '../../src/lib/server/lifecycle/guest-rows.ts';
import { prismaRunner } from '../../src/lib/server/lifecycle/sql-runner.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import { createTestDb } from '../helpers/test-db.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const tempDir = useTempDir();
const GUEST = 7_100_001n;

describe('a guest who blocked the bot', () => {
	it('is marked at the first 403, keeps the first moment, and is unmarked when they write again', async () => {
		const { db } = await createTestDb(tempDir());
		const clock = new FakeClock(new Date('2026-12-01T10:00:00Z'));
		try {
			await saveGuestProfile(db, clock, { telegramUserId: GUEST, firstName: 'Ana' });
			expect(await isBotBlocked(db, GUEST)).toBe(false);

			await markBotBlocked(db, clock, GUEST);
			clock.advance(60_000);
			await markBotBlocked(db, clock, GUEST);
			expect(await isBotBlocked(db, GUEST)).toBe(true);
			expect((await db.guestBotBlock.findUnique({ where: { telegramUserId: GUEST } }))?.blockedAt).toBe('2026-12-01T10:00:00.000Z');

			await saveGuestProfile(db, clock, { telegramUserId: GUEST, firstName: 'Ana' });
			expect(await isBotBlocked(db, GUEST)).toBe(false);
			expect(await isBotBlocked(db, 999n)).toBe(false);
		} finally {
			await db.$disconnect();
		}
	});

	it('goes with the guest\'s other rows (reset, /forget, retention)', async () => {
		const { db } = await createTestDb(tempDir());
		const clock = new FakeClock(new Date('2026-12-01T10:00:00Z'));
		try {
			await saveGuestProfile(db, clock, { telegramUserId: GUEST, firstName: 'Ana' });
			await markBotBlocked(db, clock, GUEST);
			const sql = prismaRunner(db);
			const deleted = await deleteGuestRows(sql, GUEST, await readGuestFootprint(sql, GUEST));
			expect(deleted.guest_bot_blocks).toBe(1);
			expect(await db.guestBotBlock.count()).toBe(0);
		} finally {
			await db.$disconnect();
		}
	});
});
