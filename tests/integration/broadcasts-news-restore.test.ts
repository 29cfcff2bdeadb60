import { describe, expect, it } from 'vitest';
import { applyErasuresWith } from '../../src/lib/server/backup/erasure-replay.ts';
import { markBotBlocked } from '../../src/lib/server/guests/bot-blocked.ts';
import { saveGuestProfile } from '../../src/lib/server/guests/guest-profile.ts';
import { turnNewsOn } from '../../src/lib/server/broadcasts/news-choice.ts';
import { optOutOfBroadcasts } from '../../src/lib/server/broadcasts/opt-out.ts';
import { pseudonymForGuest } from '../../src/lib/server/lifecycle/pseudonym.ts';
import { prismaRunner } from '../../src/lib/server/lifecycle/sql-runner.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import { useTestDb } from '../helpers/test-db.ts';

/**
 * A restore re-applies later erasures to the restored data (docs/runbook.md): a console reset
 * replayed keeps the guest's news choice and bot-blocked mark, as the reset itself did; a /forget
 * replayed takes them — also from a guest the backup knows only by those kept rows.
 */
describe('erasures replayed on a restored database and the news choice', () => {
	const openDb = useTestDb('news-restore-');
	const key = Buffer.alloc(32, 9);

	it('a replayed reset keeps the choice and the block; a replayed /forget takes them, even with no users row left', async () => {
		const { db } = await openDb();
		const clock = new FakeClock('2026-12-01T10:00:00.000Z');
		for (const id of [801n, 802n]) await saveGuestProfile(db, clock, { telegramUserId: id, firstName: 'Guest' });
		await optOutOfBroadcasts(db, clock, 801n, 'stop', 'en');
		await markBotBlocked(db, clock, 801n);
		await turnNewsOn(db, clock, 802n, 'uz');
		await db.user.deleteMany({ where: { telegramUserId: 802n } }); // reset before the backup: only the kept choice names them
		const erasure = (id: bigint, reason: string) => ({
			subject: pseudonymForGuest(key, id),
			reason,
			erasedAt: clock.now().toISOString(),
			packNameHashes: [],
			fromLedger: true
		});

		await db.$transaction((tx) =>
			applyErasuresWith(prismaRunner(tx), { guests: [erasure(801n, 'reset_user')], leads: [] }, key)
		);
		expect(await db.user.count({ where: { telegramUserId: 801n } })).toBe(0);
		expect(await db.newsOptIn.findUniqueOrThrow({ where: { telegramUserId: 801n } })).toMatchObject({
			state: 'out',
			via: 'stop'
		});
		expect(await db.guestBotBlock.count({ where: { telegramUserId: 801n } })).toBe(1);

		const replayed = await db.$transaction((tx) =>
			applyErasuresWith(
				prismaRunner(tx),
				{ guests: [erasure(801n, 'forget'), erasure(802n, 'forget')], leads: [] },
				key
			)
		);
		expect(replayed.guests).toBe(2);
		expect(await db.newsOptIn.count()).toBe(0);
		expect(await db.guestBotBlock.count()).toBe(0);
	});
});
