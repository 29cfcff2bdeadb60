import { describe, expect, it } from 'vitest';
import type { OperatorIdentity } from '../../src/lib/server/auth/roles.ts';
import { startDueBroadcasts } from '../../src/lib/server/broadcasts/broadcasts.repository.ts';
import { optOutOfBroadcasts } from '../../src/lib/server/broadcasts/opt-out.ts';
import { recordBotMessage } from '../../src/lib/server/messages/message-log.ts';
import { readConversation } from '../../src/lib/server/messages/message-views.ts';
import { deliverBroadcasts, type BroadcastDeliveryDeps } from '../../src/worker/tasks/broadcasts-deliver.ts';
import { broadcastDeliveryDeps, queueBroadcast, seedGuests } from './broadcast-world.ts';
import { consoleCaller, insertOperator } from './console-fixtures.ts';
import { useGuestWorlds, type GuestWorld } from './guest-harness.ts';

/**
 * The console's per-recipient results of a broadcast (broadcasts.recipients, the real router): the
 * rows the real outbox leaves after sending through the emulator — sent, opted out on the way,
 * blocked the bot, chat not found, failed after every try — each in plain words; keyset pages over
 * thousands of rows, filtered by state; signed-in operators only. Also the guest's history
 * (what messages.watchConversation pushes) with the broadcast in it. Runs on PostgreSQL too
 * (TEST_DB_ENGINE=postgresql).
 */
const startWorld = useGuestWorlds('bcast-results-');

async function setUp() {
	const w = await startWorld();
	const ivan = await insertOperator(w.db, w.clock, 'ivan', 'operator');
	const vera = await insertOperator(w.db, w.clock, 'vera', 'viewer');
	const as = (who: OperatorIdentity | null) => consoleCaller(w.db, w.clock, w.dir, who);
	const deps = broadcastDeliveryDeps(w);
	return { w, ivan, vera, as, deps };
}

/** Delivery passes until nothing is queued, the clock moving past every backoff. */
async function deliverAll(deps: BroadcastDeliveryDeps): Promise<void> {
	for (let i = 0; i < 100; i++) {
		await deliverBroadcasts(deps);
		if ((await deps.db.broadcastRecipient.count({ where: { state: 'queued' } })) === 0) return;
		(deps.clock as GuestWorld['clock']).advance(60_000);
	}
	throw new Error('rows still queued after 100 passes');
}

describe('a broadcast’s results per recipient', () => {
	it('says who got it and why each other guest did not, in plain words, per state', async () => {
		const { w, ivan, as, deps } = await setUp();
		const now = w.clock.now().toISOString();
		const [got, blocked, optsOut, flaky] = await seedGuests(
			w.db,
			w.emulator,
			[{}, { blockedInTelegram: true }, {}, {}],
			now
		);
		// Said yes to news, but has no chat with the bot in Telegram: 400 chat not found.
		const unknown = 990_000_001n;
		await w.db.user.create({ data: { telegramUserId: unknown, firstName: 'Nobody', createdAt: now } });
		await w.db.newsOptIn.create({ data: { telegramUserId: unknown, state: 'in', updatedAt: now } });
		await w.emulator.control.injectFault({
			method: 'sendMessage',
			chat_id: flaky!,
			times: 6,
			kind: '5xx',
			status: 502
		});

		const id = await queueBroadcast(w.db, '<b>Thanks</b> r1', null, now);
		expect(await startDueBroadcasts(w.db, now)).toEqual([id]);
		// Opted out after the audience was chosen, before their turn.
		await optOutOfBroadcasts(w.db, w.clock, BigInt(optsOut!), 'stop', 'en');
		await deliverAll(deps);

		const all = await as(ivan).broadcasts.recipients({ id });
		expect(all.nextAfter).toBeNull();
		expect(all.prevBefore).toBeNull();
		const byGuest = new Map(all.rows.map((r) => [r.telegramUserId, r]));
		expect(byGuest.get(String(got))).toMatchObject({
			guest: 'Guest0',
			state: 'sent',
			label: 'Sent',
			when: { word: 'sent at' }
		});
		expect(byGuest.get(String(blocked))).toMatchObject({
			state: 'blocked',
			words: 'Not delivered: they have blocked the bot, so Telegram refused the message.'
		});
		expect(byGuest.get(String(optsOut))?.words).toContain('Skipped: they opted out of news');
		expect(byGuest.get(String(unknown))).toMatchObject({
			guest: 'Nobody',
			state: 'failed',
			words: expect.stringContaining('Telegram has no chat with this person (chat not found)')
		});
		expect(byGuest.get(String(flaky))).toMatchObject({
			state: 'failed',
			words: 'Failed after 6 tries: Telegram’s servers answered with an error.'
		});
		// No status codes reach the operator.
		for (const row of all.rows) expect(row.words).not.toMatch(/\b(400|403|502)\b/);

		// The filter's counts are the results bars' counts.
		const detail = await w.db.broadcastRecipient.groupBy({
			by: ['state'],
			where: { broadcastId: id, test: false },
			_count: { _all: true }
		});
		for (const { state, _count } of detail) {
			const filtered = await as(ivan).broadcasts.recipients({ id, state: state as 'sent' });
			expect(filtered.rows).toHaveLength(_count._all);
			expect(new Set(filtered.rows.map((r) => r.state))).toEqual(new Set([state]));
		}
		expect(Object.fromEntries(detail.map((g) => [g.state, g._count._all]))).toEqual({
			sent: 1,
			blocked: 1,
			skipped: 1,
			failed: 2
		});

		// The guest's history: the broadcast, marked and linked, in time order with the chat.
		const lines = await readConversation(w.db, String(got));
		const broadcastLine = lines.lines.find((l) => l.kind === 'broadcast');
		expect(broadcastLine).toMatchObject({
			direction: 'out',
			text: 'Thanks r1',
			broadcast: { id, test: false, label: 'Sent' }
		});
		// Lines the guest wrote before and after it sit either side: one timeline, oldest first.
		const line = (text: string, at: string) =>
			recordBotMessage(w.db, {
				telegramUserId: BigInt(got!),
				direction: 'in',
				kind: 'text',
				text,
				messageId: null,
				at
			});
		await line('before', now);
		w.clock.advance(60_000);
		await line('after', w.clock.now().toISOString());
		const after = await readConversation(w.db, String(got));
		const texts = after.lines.map((l) => l.text);
		expect(texts.indexOf('before')).toBeGreaterThanOrEqual(0);
		expect(texts.indexOf('before')).toBeLessThan(texts.indexOf('Thanks r1'));
		expect(texts.at(-1)).toBe('after');
		const times = after.lines.map((l) => l.at);
		expect([...times].sort()).toEqual(times);
		const skippedHistory = await readConversation(w.db, String(optsOut));
		expect(skippedHistory.lines.find((l) => l.kind === 'broadcast')?.broadcast?.words).toContain('opted out of news');
	});

	it('pages through thousands of rows by id, forwards and back, with or without a state', async () => {
		const { w, ivan, as } = await setUp();
		const now = w.clock.now().toISOString();
		const id = await queueBroadcast(w.db, 'Many', null, now);
		const states = ['sent', 'sent', 'skipped', 'queued', 'failed'];
		await w.db.broadcastRecipient.createMany({
			data: Array.from({ length: 2000 }, (_, i) => ({
				broadcastId: id,
				telegramUserId: BigInt(500_000 + i),
				state: states[i % states.length]!,
				error: states[i % states.length] === 'skipped' ? 'opted out' : null,
				sentAt: states[i % states.length] === 'sent' ? now : null,
				updatedAt: now
			}))
		});
		// Another broadcast's rows and a test copy are not this broadcast's recipients.
		const other = await queueBroadcast(w.db, 'Other', null, now);
		await w.db.broadcastRecipient.create({ data: { broadcastId: other, telegramUserId: 1n, updatedAt: now } });
		await w.db.broadcastRecipient.create({ data: { broadcastId: id, telegramUserId: 2n, test: true, updatedAt: now } });

		const seen: number[] = [];
		let page = await as(ivan).broadcasts.recipients({ id });
		const pages = [page];
		while (page.nextAfter !== null) {
			page = await as(ivan).broadcasts.recipients({ id, after: page.nextAfter });
			pages.push(page);
		}
		for (const p of pages) seen.push(...p.rows.map((r) => r.id));
		expect(pages).toHaveLength(40);
		expect(seen).toHaveLength(2000);
		expect([...seen].sort((a, b) => a - b)).toEqual(seen);
		expect(new Set(seen).size).toBe(2000);
		expect(pages[0]!.prevBefore).toBeNull();
		// Back from page 3 is page 2, and from page 2 page 1 (which has nothing before it).
		const back = await as(ivan).broadcasts.recipients({ id, before: pages[2]!.prevBefore });
		expect(back.rows.map((r) => r.id)).toEqual(pages[1]!.rows.map((r) => r.id));
		const first = await as(ivan).broadcasts.recipients({ id, before: back.prevBefore });
		expect(first.rows.map((r) => r.id)).toEqual(pages[0]!.rows.map((r) => r.id));
		expect(first.prevBefore).toBeNull();
		expect(first.nextAfter).toBe(pages[0]!.nextAfter);

		let skipped = await as(ivan).broadcasts.recipients({ id, state: 'skipped' });
		let skippedCount = skipped.rows.length;
		while (skipped.nextAfter !== null) {
			skipped = await as(ivan).broadcasts.recipients({ id, state: 'skipped', after: skipped.nextAfter });
			expect(skipped.rows.every((r) => r.state === 'skipped' && r.words.includes('opted out'))).toBe(true);
			skippedCount += skipped.rows.length;
		}
		expect(skippedCount).toBe(400);
		expect((await as(ivan).broadcasts.recipients({ id, state: 'blocked' })).rows).toEqual([]);
		// Guests without a users row are named by their id, as elsewhere in the console.
		expect(pages[0]!.rows[0]!.guest).toBe('guest 500000');
		// The operator's chat shows its test copy in its history, marked as one.
		expect((await readConversation(w.db, '2')).lines).toEqual([
			expect.objectContaining({
				kind: 'broadcast',
				text: 'Many',
				broadcast: expect.objectContaining({ id, test: true })
			})
		]);
	});

	it('is for signed-in console users only; viewers read it like the page', async () => {
		const { w, vera, as } = await setUp();
		const id = await queueBroadcast(w.db, 'Private', null, w.clock.now().toISOString());
		await expect(as(null).broadcasts.recipients({ id })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
		expect(await as(vera).broadcasts.recipients({ id })).toEqual({ rows: [], nextAfter: null, prevBefore: null });
		await expect(as(vera).broadcasts.recipients({ id, state: 'nonsense' as 'sent' })).rejects.toMatchObject({
			code: 'BAD_REQUEST'
		});
	});
});
