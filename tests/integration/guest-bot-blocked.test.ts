import { describe, expect, it } from 'vitest';
import { isBotBlocked, markBotBlocked } from '../../src/lib/server/guests/bot-blocked.ts';
import { saveGuestProfile } from '../../src/lib/server/guests/guest-profile.ts';
import { deleteGuestRows, readGuestFootprint } from '../../src/lib/server/lifecycle/guest-rows.ts';
import { prismaRunner } from '../../src/lib/server/lifecycle/sql-runner.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import { useTestDb } from '../helpers/test-db.ts';

const GUEST = 7_100_001n;

describe('a guest who blocked the bot', () => {
	const freshDb = useTestDb('bot-blocked-');
	const clock = () => new FakeClock(new Date('2026-12-01T10:00:00Z'));

	it('is marked at the first 403, keeps the first moment, and is unmarked when they write again', async () => {
		const { db } = await freshDb();
		const now = clock();
		await saveGuestProfile(db, now, { telegramUserId: GUEST, firstName: 'Ana' });
		expect(await isBotBlocked(db, GUEST)).toBe(false);

		await markBotBlocked(db, now, GUEST);
		now.advance(60_000);
		await markBotBlocked(db, now, GUEST);
		expect(await isBotBlocked(db, GUEST)).toBe(true);
		expect((await db.guestBotBlock.findUnique({ where: { telegramUserId: GUEST } }))?.blockedAt).toBe(
			'2026-12-01T10:00:00.000Z'
		);

		await saveGuestProfile(db, now, { telegramUserId: GUEST, firstName: 'Ana' });
		expect(await isBotBlocked(db, GUEST)).toBe(false);
		expect(await isBotBlocked(db, 999n)).toBe(false);
	});

	it("goes with the guest's other rows (/forget, retention; an operator's reset keeps it, console-reset-guest.test.ts)", async () => {
		const { db } = await freshDb();
		const now = clock();
		await saveGuestProfile(db, now, { telegramUserId: GUEST, firstName: 'Ana' });
		await markBotBlocked(db, now, GUEST);
		const sql = prismaRunner(db);
		const deleted = await deleteGuestRows(sql, GUEST, await readGuestFootprint(sql, GUEST));
		expect(deleted.guest_bot_blocks).toBe(1);
		expect(await db.guestBotBlock.count()).toBe(0);
	});
});
