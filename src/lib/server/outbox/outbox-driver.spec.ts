import { GrammyError } from 'grammy';
import { describe, expect, it } from 'vitest';
import { ChatCooldown } from '../telegram/flood-control.ts';
import { FakeClock, SECOND } from '../time/clock.ts';
import { decideAfterFailure, type EndReason, type FailureLadder } from './failure-ladder.ts';
import { FLOOD_HOLD_NOTE, runOutboxPass, type OutboxSender } from './outbox-driver.ts';
import { depsFor, fakeBudget } from './outbox-fakes.ts';

/** An error exactly as grammY throws it for a Bot API answer with ok: false. */
function telegramError(error_code: number, description: string, retry_after?: number): GrammyError {
	const parameters = retry_after === undefined ? {} : { retry_after };
	return new GrammyError(
		`Call failed! (${error_code}: ${description})`,
		{ ok: false, error_code, description, parameters },
		'sendMessage',
		{}
	);
}

const LADDER: FailureLadder = {
	backoff: { baseMs: 10 * SECOND, capMs: 60 * SECOND, jitter: [1, 1] },
	maxAttempts: 3,
	recipient: 'person',
	floodCountsAsAttempt: false
};

/** A row of the in-memory outbox: the same columns every outbox keeps, by whatever name. */
interface FakeRow {
	id: number;
	chatId: bigint;
	state: 'queued' | 'sent' | EndReason;
	attempts: number;
	nextAttemptAt: number;
	leaseUntil: number;
	error: string | null;
	skip?: string;
}

/** An in-memory outbox: claim = the first due row whose lease ran out, lease pushed ahead. */
function fakeOutbox(
	clock: FakeClock,
	rows: FakeRow[],
	answers: (row: FakeRow) => Error | null,
	extra: Partial<OutboxSender<FakeRow, string, number>> = {}
) {
	const calls: number[] = [];
	const sender: OutboxSender<FakeRow, string, number> = {
		name: 'fake',
		perPass: 10,
		ladder: LADDER,
		places: 'guest',
		claim: async (now) => {
			const row = rows.find(
				(r) => r.state === 'queued' && r.nextAttemptAt <= now.getTime() && r.leaseUntil <= now.getTime()
			);
			if (row) row.leaseUntil = now.getTime() + 60 * SECOND;
			return row ?? null;
		},
		attempt: (row) => row.attempts + 1,
		chatId: (row) => row.chatId,
		describe: (row) => ({ rowId: row.id }),
		prepare: async (row) => (row.skip ? { end: 'skipped', reason: row.skip } : { message: `hello ${row.id}` }),
		send: async (row) => {
			calls.push(row.id);
			const error = answers(row);
			if (error) throw error;
			return 100 + row.id;
		},
		recordSent: async (row) => {
			Object.assign(row, { state: 'sent', leaseUntil: 0, error: null });
		},
		postpone: async (row, retryAt, error, counts) => {
			Object.assign(row, {
				nextAttemptAt: retryAt.getTime(),
				leaseUntil: 0,
				error,
				attempts: row.attempts + (counts ? 1 : 0)
			});
		},
		end: async (row, as, reason) => {
			Object.assign(row, { state: as, leaseUntil: 0, error: reason });
		},
		...extra
	};
	return { sender, calls };
}

function rowsFor(...chats: number[]): FakeRow[] {
	return chats.map((chat, i) => ({
		id: i + 1,
		chatId: BigInt(chat),
		state: 'queued',
		attempts: 0,
		nextAttemptAt: 0,
		leaseUntil: 0,
		error: null
	}));
}

describe('the outbox driver', () => {
	it('sends each due row once and records it; a second pass finds nothing', async () => {
		const clock = new FakeClock();
		const rows = rowsFor(1, 2, 3);
		const { sender, calls } = fakeOutbox(clock, rows, () => null);
		expect(await runOutboxPass(sender, depsFor(clock))).toBe(3);
		expect(await runOutboxPass(sender, depsFor(clock))).toBe(0);
		expect(calls).toEqual([1, 2, 3]);
		expect(rows.map((r) => r.state)).toEqual(['sent', 'sent', 'sent']);
	});

	it('a 5xx backs off by the one formula; the maxAttempts-th failure makes the row poison with its reason', async () => {
		const clock = new FakeClock();
		const rows = rowsFor(1);
		const { sender, calls } = fakeOutbox(clock, rows, () => telegramError(502, 'Bad Gateway'));
		const start = clock.now().getTime();
		await runOutboxPass(sender, depsFor(clock));
		expect(rows[0]).toMatchObject({ state: 'queued', attempts: 1, nextAttemptAt: start + 10 * SECOND });
		expect(rows[0]?.error).toMatch(/Bad Gateway/);
		clock.advance(9 * SECOND);
		await runOutboxPass(sender, depsFor(clock));
		expect(calls).toHaveLength(1); // not due before its backoff
		clock.advance(SECOND);
		await runOutboxPass(sender, depsFor(clock));
		expect(rows[0]).toMatchObject({ state: 'queued', attempts: 2, nextAttemptAt: clock.now().getTime() + 20 * SECOND });
		clock.advance(20 * SECOND);
		await runOutboxPass(sender, depsFor(clock));
		expect(rows[0]).toMatchObject({ state: 'poison', attempts: 2 });
		expect(rows[0]?.error).toMatch(/Bad Gateway/);
		clock.advance(60 * 60 * SECOND);
		await runOutboxPass(sender, depsFor(clock));
		expect(calls).toHaveLength(3);
	});

	it('403 and 400 end a person’s row at once; the sales group’s rows are retried instead', async () => {
		const clock = new FakeClock();
		const rows = rowsFor(1, 2);
		const answers = (row: FakeRow) =>
			row.id === 1
				? telegramError(403, 'Forbidden: bot was blocked by the user')
				: telegramError(400, 'Bad Request: chat not found');
		const { sender } = fakeOutbox(clock, rows, answers);
		await runOutboxPass(sender, depsFor(clock));
		expect(rows.map((r) => r.state)).toEqual(['blocked', 'unreachable']);

		const groupRows = rowsFor(1);
		const group = fakeOutbox(
			clock,
			groupRows,
			() => telegramError(403, 'Forbidden: bot was kicked from the group chat'),
			{ ladder: { ...LADDER, recipient: 'group', maxAttempts: null } }
		);
		await runOutboxPass(group.sender, depsFor(clock));
		expect(groupRows[0]).toMatchObject({ state: 'queued', attempts: 1 });
	});

	it('a 429 waits its retry_after, holds the budget and cools the chat; whether it counts is the ladder’s', async () => {
		const clock = new FakeClock();
		const start = clock.now().getTime();
		const { budget, floods } = fakeBudget(clock);
		const cooldown = new ChatCooldown();
		const rows = rowsFor(7, 7);
		const { sender, calls } = fakeOutbox(clock, rows, () =>
			telegramError(429, 'Too Many Requests: retry after 40', 40)
		);
		await runOutboxPass(sender, depsFor(clock, { budget, cooldown }));
		expect(calls).toEqual([1]); // the second row to the same chat waits: the chat cools down
		expect(rows[0]).toMatchObject({ state: 'queued', attempts: 0, nextAttemptAt: start + 40 * SECOND });
		expect(rows[1]).toMatchObject({ state: 'queued', attempts: 0, nextAttemptAt: start + SECOND, error: null });
		expect(floods).toEqual([40 * SECOND]);
		expect(cooldown.isCooling(7n, new Date(start + 39 * SECOND))).toBe(true);

		const counted = rowsFor(8);
		const countingSender = fakeOutbox(clock, counted, () => telegramError(429, 'Too Many Requests', 5), {
			ladder: { ...LADDER, floodCountsAsAttempt: true }
		});
		await runOutboxPass(countingSender.sender, depsFor(clock));
		// Counted: the backoff (10 s) wins over the shorter retry_after.
		expect(counted[0]).toMatchObject({ attempts: 1, nextAttemptAt: clock.now().getTime() + 10 * SECOND });
	});

	it('guest lane: a chat with no place this second goes back a second without an attempt', async () => {
		const clock = new FakeClock();
		const { budget } = fakeBudget(clock);
		const rows = rowsFor(5, 5, 6);
		const { sender, calls } = fakeOutbox(clock, rows, () => null);
		expect(await runOutboxPass(sender, depsFor(clock, { budget }))).toBe(2);
		expect(calls).toEqual([1, 3]);
		expect(rows[1]).toMatchObject({ state: 'queued', attempts: 0, nextAttemptAt: clock.now().getTime() + SECOND });
		clock.advance(SECOND);
		expect(await runOutboxPass(sender, depsFor(clock, { budget }))).toBe(1);
	});

	it('bulk lane: short waits are slept through, a long hold ends the pass before any claim', async () => {
		const clock = new FakeClock();
		const fake = fakeBudget(clock);
		const rows = rowsFor(5, 5);
		const { sender, calls } = fakeOutbox(clock, rows, () => null, { places: 'bulk' });
		expect(await runOutboxPass(sender, depsFor(clock, { budget: fake.budget }))).toBe(2);
		expect(calls).toEqual([1, 2]); // the second slept its second out

		const held = rowsFor(9);
		const heldSender = fakeOutbox(clock, held, () => null, { places: 'bulk' });
		fake.setHold(clock.now().getTime() + 30 * SECOND);
		expect(await runOutboxPass(heldSender.sender, depsFor(clock, { budget: fake.budget }))).toBe(0);
		expect(held[0]).toMatchObject({ state: 'queued', leaseUntil: 0 }); // never claimed
	});

	it('bulk lane: a chat held longer than a second in all (a killed worker’s place) puts the row back', async () => {
		const clock = new FakeClock();
		const fake = fakeBudget(clock);
		const start = clock.now().getTime();
		const rows = rowsFor(5);
		const { sender, calls } = fakeOutbox(clock, rows, () => null, { places: 'bulk' });
		const held = { ...fake.budget, take: async () => 100 }; // held: asked about again every 100 ms, forever
		expect(await runOutboxPass(sender, depsFor(clock, { budget: held }))).toBe(0);
		expect(calls).toEqual([]);
		expect(clock.now().getTime() - start).toBe(SECOND);
		expect(rows[0]).toMatchObject({ state: 'queued', attempts: 0, nextAttemptAt: clock.now().getTime() + 100 });
	});

	it('a hold that begins after the claim puts the row back until it ends, uncounted', async () => {
		const clock = new FakeClock();
		const fake = fakeBudget(clock);
		const rows = rowsFor(5);
		const { sender, calls } = fakeOutbox(clock, rows, () => null, {
			places: 'bulk',
			prepare: async () => {
				fake.setHold(clock.now().getTime() + 30 * SECOND); // another worker's 429 meanwhile
				return { message: 'hi' };
			}
		});
		expect(await runOutboxPass(sender, depsFor(clock, { budget: fake.budget }))).toBe(0);
		expect(calls).toEqual([]);
		expect(rows[0]).toMatchObject({
			state: 'queued',
			attempts: 0,
			nextAttemptAt: clock.now().getTime() + 30 * SECOND,
			error: FLOOD_HOLD_NOTE
		});
	});

	it('settles each place once its call is answered or fails; a row with no call takes and settles none', async () => {
		const clock = new FakeClock();
		const fake = fakeBudget(clock);
		const rows = [...rowsFor(5, 6, 7), { ...rowsFor(8)[0]!, id: 4, skip: 'opted out' }];
		const { sender } = fakeOutbox(clock, rows, (row) => (row.id === 2 ? telegramError(500, 'Bad Gateway') : null));
		await runOutboxPass(sender, depsFor(clock, { budget: fake.budget }));
		expect(fake.settled).toEqual([5n, 6n, 7n]);

		// The leads' client takes and settles its own places: the driver settles none of them.
		const client = fakeBudget(clock);
		const clientSender = fakeOutbox(clock, rowsFor(9), () => null, { places: 'client' });
		expect(await runOutboxPass(clientSender.sender, depsFor(clock, { budget: client.budget }))).toBe(1);
		expect(client.settled).toEqual([]);
	});

	it('ends a row without a call when prepare says so', async () => {
		const clock = new FakeClock();
		const rows = rowsFor(1, 2);
		rows[0]!.skip = 'opted out';
		const { sender, calls } = fakeOutbox(clock, rows, () => null);
		expect(await runOutboxPass(sender, depsFor(clock))).toBe(1);
		expect(calls).toEqual([2]);
		expect(rows[0]).toMatchObject({ state: 'skipped', error: 'opted out' });
	});

	it('a row prepare puts back waits uncounted, without a call', async () => {
		const clock = new FakeClock();
		const rows = rowsFor(1);
		const later = new Date(clock.now().getTime() + 120 * SECOND);
		const { sender, calls } = fakeOutbox(clock, rows, () => null, { prepare: async () => ({ later }) });
		expect(await runOutboxPass(sender, depsFor(clock))).toBe(0);
		expect(calls).toEqual([]);
		expect(rows[0]).toMatchObject({ state: 'queued', attempts: 0, nextAttemptAt: later.getTime(), leaseUntil: 0 });
	});

	it('one chat: its cooldown stops the claim, and a failure ends the pass', async () => {
		const clock = new FakeClock();
		const cooldown = new ChatCooldown();
		const rows = rowsFor(9, 9, 9);
		const { sender, calls } = fakeOutbox(clock, rows, () => telegramError(502, 'Bad Gateway'), {
			oneChat: 9n,
			ladder: { ...LADDER, maxAttempts: null, recipient: 'group' }
		});
		expect(await runOutboxPass(sender, depsFor(clock, { cooldown }))).toBe(0);
		expect(calls).toEqual([1]);
		clock.advance(60 * SECOND);
		cooldown.pause(9n, clock.now().getTime() + 5 * SECOND);
		expect(await runOutboxPass(sender, depsFor(clock, { cooldown }))).toBe(0);
		expect(calls).toEqual([1]);
		expect(rows.map((r) => r.leaseUntil)).toEqual([0, 0, 0]);
	});

	it('a crash after the claim leaves the row leased, due again once the lease runs out', async () => {
		const clock = new FakeClock();
		const rows = rowsFor(1);
		const { sender, calls } = fakeOutbox(clock, rows, () => null, { crashSteps: { afterClaim: 'after_claim' } });
		const crash = (step: string) => {
			throw new Error(`crash at ${step}`);
		};
		await expect(runOutboxPass(sender, depsFor(clock, { crashPoint: crash }))).rejects.toThrow(/after_claim/);
		expect(await runOutboxPass(sender, depsFor(clock))).toBe(0);
		clock.advance(60 * SECOND);
		expect(await runOutboxPass(sender, depsFor(clock))).toBe(1);
		expect(calls).toEqual([1]);
	});

	it('stops between rows when asked to, and after passMs', async () => {
		const clock = new FakeClock();
		const rows = rowsFor(1, 2, 3, 4, 5);
		let checks = 0;
		const { sender } = fakeOutbox(clock, rows, () => null, {
			send: async (row) => (clock.advance(4 * SECOND), row.id),
			passMs: 10 * SECOND
		});
		expect(await runOutboxPass(sender, depsFor(clock, { shouldStop: () => ++checks > 1 }))).toBe(1);
		// 4 s a send: rows 2, 3 and 4 start within the 10 s, row 5 waits for the next pass.
		expect(await runOutboxPass(sender, depsFor(clock))).toBe(3);
		expect(rows[4]?.state).toBe('queued');
	});
});

describe('decideAfterFailure', () => {
	it('never retries sooner than retry_after, even when the backoff is shorter', () => {
		const now = new Date('2026-01-01T00:00:00Z');
		const verdict = decideAfterFailure(
			telegramError(429, 'Too Many Requests', 90),
			1,
			{ ...LADDER, floodCountsAsAttempt: true },
			now,
			() => 1
		);
		expect(verdict).toMatchObject({
			verdict: 'retry',
			countsAsAttempt: true,
			retryAt: new Date(now.getTime() + 90 * SECOND)
		});
	});

	it('an uncounted 429 never makes a row poison', () => {
		const verdict = decideAfterFailure(telegramError(429, 'Too Many Requests', 1), 99, LADDER, new Date(0));
		expect(verdict).toMatchObject({ verdict: 'retry', countsAsAttempt: false });
	});

	it('a network error is retried like a 5xx', () => {
		const verdict = decideAfterFailure(new Error('socket hang up'), 1, LADDER, new Date(0));
		expect(verdict).toMatchObject({
			verdict: 'retry',
			countsAsAttempt: true,
			retryAt: new Date(10 * SECOND),
			error: expect.stringMatching(/socket hang up/)
		});
	});
});
