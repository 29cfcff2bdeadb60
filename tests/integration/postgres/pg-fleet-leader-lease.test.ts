import { describe, expect, it } from 'vitest';
import { openPostgresDatabase } from '../../../src/lib/server/db/client.ts';
import { acquireLease, renewLease } from '../../../src/lib/server/fleet/leader-lease.repository.ts';
import { FakeClock, SECOND } from '../../../src/lib/server/time/clock.ts';
import { usePgTestDb } from '../../helpers/pg-test-db.ts';

const TTL_MS = 15 * SECOND;

describe('the leader lease on PostgreSQL', () => {
	const database = usePgTestDb();

	it('acquirers racing on their own connections: one holds it; after it expires one of them takes it again', async () => {
		const { url } = database();
		const clients = Array.from({ length: 4 }, () => openPostgresDatabase(url));
		try {
			const clock = new FakeClock('2026-03-01T10:00:00.000Z');
			const race = async () => {
				const won = await Promise.all(
					clients.map((db, n) =>
						acquireLease(db, clock, { name: 'telegram-updates', holder: `worker-${n}`, ttlMs: TTL_MS })
					)
				);
				return won.flatMap((ok, n) => (ok ? [n] : []));
			};
			const [first] = await race();
			expect(await race()).toEqual([first]);

			clock.advance(TTL_MS - SECOND);
			expect(await race()).toEqual([first]);

			// The holder stops renewing; once its lease has run out exactly one worker takes it.
			clock.advance(TTL_MS);
			const rounds = await race();
			expect(rounds).toHaveLength(1);
			const holder = (await clients[0]!.leaderLease.findUniqueOrThrow({ where: { name: 'telegram-updates' } })).holder;
			expect(holder).toBe(`worker-${rounds[0]}`);
			if (rounds[0] !== first)
				expect(
					await renewLease(clients[first!]!, clock, {
						name: 'telegram-updates',
						holder: `worker-${first}`,
						ttlMs: TTL_MS
					})
				).toBe(false);
		} finally {
			await Promise.all(clients.map((db) => db.$disconnect()));
		}
	});
});
