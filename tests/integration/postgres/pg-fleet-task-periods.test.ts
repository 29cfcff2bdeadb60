import { describe, expect, it } from 'vitest';
import { openPostgresDatabase } from '../../../src/lib/server/db/client.ts';
import { claimTaskPeriod } from '../../../src/lib/server/fleet/task-periods.ts';
import { FakeClock, MINUTE } from '../../../src/lib/server/time/clock.ts';
import { usePgTestDb } from '../../helpers/pg-test-db.ts';

const WORKERS = 6;

describe('scheduled task periods on PostgreSQL', () => {
	const database = usePgTestDb();

	it('six workers on their own connections claim at once: exactly one wins each period', async () => {
		const { url } = database();
		const clients = Array.from({ length: WORKERS }, () => openPostgresDatabase(url));
		try {
			const clock = new FakeClock('2026-03-01T10:00:30.000Z');
			const winners: string[] = [];
			for (let period = 0; period < 5; period++) {
				const claims = await Promise.all(
					clients.map((db, n) => claimTaskPeriod(db, clock, 'leads-digest', MINUTE, `worker-${n}`))
				);
				const won = claims.flatMap((claim, n) => (claim ? [`worker-${n}`] : []));
				expect(won).toHaveLength(1);
				winners.push(won[0]!);
				clock.advance(MINUTE);
			}
			const rows = await clients[0]!.scheduledTaskRun.findMany({ orderBy: { periodStart: 'asc' } });
			expect(rows.map((row) => [row.periodStart, row.claimedBy])).toEqual(
				winners.map((winner, period) => [
					new Date(Date.parse('2026-03-01T10:00:00.000Z') + period * MINUTE).toISOString(),
					winner
				])
			);
		} finally {
			await Promise.all(clients.map((db) => db.$disconnect()));
		}
	});
});
