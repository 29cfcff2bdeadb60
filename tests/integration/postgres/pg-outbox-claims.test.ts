import { describe, expect, it } from 'vitest';
import { claimNextRecipient } from '../../../src/lib/server/broadcasts/broadcast-recipients.repository.ts';
import { claimLeadToPublish, claimRepeatToNotify } from '../../../src/lib/server/leads/lead-outbox.repository.ts';
import { FakeClock, MINUTE } from '../../../src/lib/server/time/clock.ts';
import { usePgTestDb } from '../../helpers/pg-test-db.ts';
import { atOnce, fulfilled, useTwoClients } from './race-clients.ts';

// Two workers on one PostgreSQL database claiming from the same outbox at once, many rounds: the
// claims the outbox driver runs (claimRowWithLease) hand each due row to one worker only, and with
// two rows due each worker gets its own (FOR UPDATE SKIP LOCKED passes over the other's row).

const ROUNDS = 10;

describe('outbox claims from two workers at once', () => {
	const database = usePgTestDb();
	const clients = useTwoClients(database);
	const clock = new FakeClock('2026-03-01T10:00:00.000Z');
	const at = () => clock.now().toISOString();

	it('lead cards: one due lead is claimed once; two due leads go one to each worker, each leased', async () => {
		const [one, two] = clients();
		for (let round = 0; round < ROUNDS; round++) {
			const lead = await one.lead.create({ data: { requestId: `one-${round}`, createdAt: at() } });
			const single = fulfilled(await atOnce([one, two], (db) => claimLeadToPublish(db, clock.now(), MINUTE)));
			expect(single.filter((l) => l !== null).map((l) => l!.id)).toEqual([lead.id]);
			await one.lead.update({ where: { id: lead.id }, data: { publishedAt: at() } });

			const pair = [
				await one.lead.create({ data: { requestId: `a-${round}`, createdAt: at() } }),
				await one.lead.create({ data: { requestId: `b-${round}`, createdAt: at() } })
			];
			const claims = fulfilled(await atOnce([one, two], (db) => claimLeadToPublish(db, clock.now(), MINUTE)));
			const ids = claims.filter((l) => l !== null).map((l) => l!.id);
			// Both claimed, never the same lead twice: one waits for nothing, it passes over the locked row.
			expect(ids.sort((a, b) => a - b)).toEqual(pair.map((l) => l.id));
			expect(
				claims.every((l) => l === null || l.nextPublishAt === new Date(clock.now().getTime() + MINUTE).toISOString())
			).toBe(true);
			await one.lead.updateMany({ where: { id: { in: pair.map((l) => l.id) } }, data: { publishedAt: at() } });
		}
	});

	it('repeat pings and broadcast recipients: each due row is claimed by one worker', async () => {
		const [one, two] = clients();
		const lead = await one.lead.create({
			data: { requestId: 'posted', createdAt: at(), publishedAt: at(), chatId: -100n, messageId: 1n }
		});
		const broadcast = await one.broadcast.create({
			data: { text: 'hi', createdBy: 'oleg', createdAt: at(), updatedAt: at(), state: 'sending' }
		});
		for (let round = 0; round < ROUNDS; round++) {
			const repeat = await one.leadRepeat.create({ data: { leadId: lead.id, requestId: `repeat-${round}`, at: at() } });
			const pings = fulfilled(await atOnce([one, two], (db) => claimRepeatToNotify(db, clock.now(), MINUTE)));
			expect(pings.filter((r) => r !== null).map((r) => r!.id)).toEqual([repeat.id]);
			await one.leadRepeat.update({ where: { id: repeat.id }, data: { notifiedAt: at() } });

			const recipient = await one.broadcastRecipient.create({
				data: { broadcastId: broadcast.id, telegramUserId: BigInt(1000 + round), updatedAt: at() }
			});
			const sends = fulfilled(await atOnce([one, two], (db) => claimNextRecipient(db, clock.now(), MINUTE)));
			expect(sends.filter((r) => r !== null).map((r) => r!.id)).toEqual([recipient.id]);
			await one.broadcastRecipient.update({ where: { id: recipient.id }, data: { state: 'sent' } });
		}
	});
});
