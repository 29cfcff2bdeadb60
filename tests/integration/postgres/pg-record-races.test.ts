import { describe, expect, it } from 'vitest';
import { grantExtraPack } from '../../../src/lib/server/guests/extra-pack.ts';
import { claimCardEdit, requestCardEdit } from '../../../src/lib/server/leads/lead-card-edits.repository.ts';
import { receiveLead } from '../../../src/lib/server/leads/lead-intake.ts';
import { setLeadStatus } from '../../../src/lib/server/leads/lead-status.ts';
import { recordBotMessage } from '../../../src/lib/server/messages/message-log.ts';
import { BALANCE_KEY, setBalanceOverride } from '../../../src/lib/server/spend/balance.ts';
import { FakeClock, MINUTE } from '../../../src/lib/server/time/clock.ts';
import { usePgTestDb } from '../../helpers/pg-test-db.ts';
import { submission } from '../leads-world.ts';
import { atOnce, fulfilled, refusals, useTwoClients } from './race-clients.ts';

// Two processes on one PostgreSQL database writing the same record at once, many rounds: a landing
// submission (the same one twice, two of one contact, a burst from one client), a lead's status from a button and the console, its card edit claimed by two workers, the bot's message
// counters, the balance and an extra pack from two consoles.

const ROUNDS = 15;
const operator = { name: 'oleg', ip: null };

describe('record writes from two processes at once', () => {
	const database = usePgTestDb();
	const clients = useTwoClients(database);
	const clock = new FakeClock('2026-03-01T10:00:00.000Z');

	it('one status pressed twice at once (a replayed button): one change, one history row', async () => {
		const [one, two] = clients();
		for (let round = 0; round < ROUNDS; round++) {
			const lead = await one.lead.create({
				data: { requestId: `status-${round}`, createdAt: clock.now().toISOString() }
			});
			const outcomes = await atOnce([one, two], (db, n) =>
				setLeadStatus({ db, clock }, lead.id, 'in_work', { telegramUserId: BigInt(100 + n), name: `admin-${n}` })
			);
			expect(
				fulfilled(outcomes)
					.map((o) => o.outcome)
					.sort()
			).toEqual(['changed', 'unchanged']);
			expect(await one.leadStatusHistory.count({ where: { leadId: lead.id } })).toBe(1);
		}
	});

	it('one landing submission received twice at once (a double click on two web processes): one lead', async () => {
		const [one, two] = clients();
		for (let round = 0; round < ROUNDS; round++) {
			const sent = submission({ ipHash: `${round}`.padStart(32, 'b') });
			const outcomes = await atOnce([one, two], (db) => receiveLead({ db, clock }, sent));
			expect(
				fulfilled(outcomes)
					.map((o) => o.outcome)
					.sort()
			).toEqual(['already_received', 'lead']);
			expect(await one.lead.count({ where: { requestId: sent.requestId } })).toBe(1);
		}
	});

	it('two different submissions of one contact at once (two web processes): one lead and one repeat of it', async () => {
		const [one, two] = clients();
		for (let round = 0; round < ROUNDS; round++) {
			const first = submission({ ipHash: `${round}`.padStart(32, 'c') });
			const second = {
				...submission({ ipHash: `${round}`.padStart(32, 'd') }),
				telegram: first.telegram!.toUpperCase(),
				phone: first.phone,
				comment: 'a second try'
			};
			const outcomes = fulfilled(
				await atOnce([one, two], (db, n) => receiveLead({ db, clock }, n === 0 ? first : second))
			);
			expect(outcomes.map((o) => o.outcome).sort()).toEqual(['lead', 'repeat']);
			expect(new Set(outcomes.map((o) => (o.outcome === 'rate_limited' ? null : o.leadId))).size).toBe(1);
		}
	});

	it('submissions from one client at once on two web processes: exactly the hour’s limit of 8 is stored', async () => {
		const [one, two] = clients();
		const ipHash = 'e'.repeat(32);
		const outcomes = fulfilled(
			await Promise.all(
				Array.from({ length: 12 }, (_, n) =>
					atOnce([n % 2 ? one : two], (db) => receiveLead({ db, clock }, submission({ ipHash })))
				)
			).then((all) => all.flat())
		);
		expect(outcomes.filter((o) => o.outcome === 'lead')).toHaveLength(8);
		expect(outcomes.filter((o) => o.outcome === 'rate_limited')).toHaveLength(4);
	});

	it('two workers claim card edits at once: each edit is claimed by one of them', async () => {
		const [one, two] = clients();
		for (let round = 0; round < ROUNDS; round++) {
			await one.leadCardEdit.deleteMany();
			const lead = await one.lead.create({
				data: { requestId: `card-${round}`, createdAt: clock.now().toISOString() }
			});
			await requestCardEdit(one, lead.id, clock.now());
			const claims = fulfilled(await atOnce([one, two], (db) => claimCardEdit(db, clock.now(), MINUTE)));
			expect(claims.filter((c) => c !== null).map((c) => c!.leadId)).toEqual([lead.id]);
		}
	});

	it("one guest's two messages recorded at once on a new day: the day counts them once", async () => {
		const [one, two] = clients();
		for (let round = 0; round < ROUNDS; round++) {
			const day = new Date(Date.parse('2026-04-01T00:00:00.000Z') + round * 86_400_000).toISOString().slice(0, 10);
			const outcomes = await atOnce([one, two], (db, n) =>
				recordBotMessage(db, {
					telegramUserId: 7n,
					direction: n === 0 ? 'in' : 'out',
					kind: 'text',
					text: null,
					messageId: null,
					at: `${day}T09:00:0${n}.000Z`
				})
			);
			expect(refusals(outcomes)).toEqual([]);
			expect(await one.messageActivity.findUnique({ where: { day } })).toEqual({
				day,
				incoming: 1,
				outgoing: 1,
				guests: 1
			});
		}
	});

	it('two balances set at once, the very first one too: each audit row names the value it replaced', async () => {
		const [one, two] = clients();
		for (let round = 0; round < ROUNDS; round++) {
			await atOnce([one, two], (db, n) => setBalanceOverride(db, clock, operator, round * 10 + n));
			if (round === 0) {
				// The first ever: one of the two found nothing before it, the other found that one.
				const previous = (
					await one.auditLog.findMany({ where: { action: 'set_balance_override' }, orderBy: { id: 'asc' } })
				).map((row) => (JSON.parse(row.details ?? '{}') as { previous: unknown }).previous);
				expect(previous.filter((p) => p === null)).toHaveLength(1);
			}
			const audits = await one.auditLog.findMany({
				where: { action: 'set_balance_override' },
				orderBy: { id: 'desc' },
				take: 2
			});
			const [last, first] = audits.map(
				(row) => JSON.parse(row.details ?? '{}') as { value: number; previous: { value: number } | null }
			);
			expect(last!.previous?.value).toBe(first!.value);
			const stored = JSON.parse((await one.setting.findUniqueOrThrow({ where: { key: BALANCE_KEY } })).value) as {
				value: number;
			};
			expect(stored.value).toBe(last!.value);
		}
	});

	it('two extra packs granted at once: both count', async () => {
		const [one, two] = clients();
		await one.user.create({ data: { telegramUserId: 42n, createdAt: clock.now().toISOString() } });
		for (let round = 0; round < ROUNDS; round++) {
			const granted = fulfilled(await atOnce([one, two], (db) => grantExtraPack(db, clock, operator, 42n)));
			expect(granted.map((g) => g.extraPacksAllowed).sort((a, b) => a - b)).toEqual([2 * round + 1, 2 * round + 2]);
		}
	});
});
