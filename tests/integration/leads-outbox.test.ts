import { afterEach, describe, expect, it } from 'vitest';
import { claimLeadToPublish } from '../../src/lib/server/leads/lead-outbox.repository.ts';
import { SECOND } from '../../src/lib/server/time/clock.ts';
import { OUTBOX_LEASE_MS } from '../../src/lib/server/telegram/outbox-api.ts';
import { publishPendingLeads } from '../../src/worker/tasks/leads-publish.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { addLead, GROUP, groupMessages, sendCount, startLeadsWorld, type LeadsWorld } from './leads-world.ts';

describe('the lead publication outbox against the Telegram emulator', () => {
	const tempDir = useTempDir('leads-outbox-');
	let world: LeadsWorld;
	afterEach(async () => world?.close());

	it('posts each lead once as a card with the six status buttons and records where', async () => {
		world = await startLeadsWorld(tempDir());
		const first = await addLead(world, { name: 'Aziza', telegram: '@aziza_events', phone: '+998901234567' });
		const second = await addLead(world, { name: 'Timur' });
		expect(await publishPendingLeads(world.deps)).toBe(2);
		expect(await publishPendingLeads(world.deps)).toBe(0);

		const cards = await groupMessages(world);
		expect(cards).toHaveLength(2);
		expect(await sendCount(world)).toBe(2);
		expect(cards[0]?.text).toContain(`#stickers_${first}`);
		expect(cards[0]?.text).toContain('@aziza_events');
		expect(cards[0]?.text).toContain('+998901234567');
		expect(cards[0]?.buttons.flat().map((b) => b.callback_data)).toEqual(
			['new', 'in_work', 'contacted', 'deal', 'refused', 'spam'].map((s) => `lead:${first}:${s}`)
		);
		const rows = await world.db.lead.findMany({ orderBy: { id: 'asc' } });
		expect(
			rows.map((r) => [r.id, Number(r.chatId), Number(r.messageId), r.publishedAt !== null, r.publishAttempts])
		).toEqual([
			[first, GROUP, cards[0]?.message_id, true, 0],
			[second, GROUP, cards[1]?.message_id, true, 0]
		]);
	});

	it('a 429 and a 5xx back off (publish_attempts, next_publish_at, publish_error), then the card is posted once', async () => {
		world = await startLeadsWorld(tempDir());
		const id = await addLead(world);
		await world.emulator.control.injectFault({ method: 'sendMessage', kind: '429', retry_after: 40 });
		expect(await publishPendingLeads(world.deps)).toBe(0);
		let lead = await world.db.lead.findUniqueOrThrow({ where: { id } });
		expect(lead.publishAttempts).toBe(1);
		expect(lead.publishError).toMatch(/Too Many Requests: retry after 40/);
		expect(Date.parse(lead.nextPublishAt!) - world.clock.now().getTime()).toBeGreaterThanOrEqual(40 * SECOND);

		// Not before retry_after: a pass 39 s later sends nothing.
		world.clock.advance(39 * SECOND);
		expect(await publishPendingLeads(world.deps)).toBe(0);
		expect(await sendCount(world)).toBe(1);

		world.clock.advance(2 * SECOND);
		await world.emulator.control.injectFault({ method: 'sendMessage', kind: '5xx', status: 502 });
		expect(await publishPendingLeads(world.deps)).toBe(0);
		lead = await world.db.lead.findUniqueOrThrow({ where: { id } });
		expect(lead.publishAttempts).toBe(2);
		expect(lead.publishError).toMatch(/Internal Server Error/);
		expect(lead.publishError!.length).toBeLessThanOrEqual(300);

		world.clock.advance(31 * SECOND); // attempt 2 backs off 30 s (15 s × 2)
		expect(await publishPendingLeads(world.deps)).toBe(1);
		expect(await publishPendingLeads(world.deps)).toBe(0);
		expect(await groupMessages(world)).toHaveLength(1);
		expect(await sendCount(world)).toBe(3);
		lead = await world.db.lead.findUniqueOrThrow({ where: { id } });
		expect(lead.publishedAt).not.toBeNull();
		expect(lead.publishError).toBeNull();
	});

	it('a graceful restart in the middle of a batch neither loses nor duplicates a card', async () => {
		world = await startLeadsWorld(tempDir());
		const ids = [await addLead(world), await addLead(world), await addLead(world), await addLead(world)];
		await world.emulator.control.injectFault({ method: 'sendMessage', kind: 'delay', ms: 100, times: 4 });
		let checks = 0;
		// Shutdown is requested after the second card: the loop finishes the card in hand and stops.
		expect(await publishPendingLeads(world.deps, () => ++checks > 2)).toBe(2);
		await world.restart();
		expect(await publishPendingLeads(world.deps)).toBe(2);
		const cards = await groupMessages(world);
		expect(cards.map((c) => c.text?.split('\n')[0])).toEqual(
			ids.map((id) => expect.stringContaining(`#stickers_${id} `))
		);
		expect(await sendCount(world)).toBe(4);
	});

	it('a crash after the claim: the lead waits for its lease, then is posted exactly once', async () => {
		world = await startLeadsWorld(tempDir());
		const id = await addLead(world);
		const claimed = await claimLeadToPublish(world.db, world.clock.now(), OUTBOX_LEASE_MS);
		expect(claimed?.id).toBe(id);
		await world.restart(); // the process that claimed it died before sending

		expect(await publishPendingLeads(world.deps)).toBe(0); // its lease still runs
		world.clock.advance(OUTBOX_LEASE_MS + SECOND);
		expect(await publishPendingLeads(world.deps)).toBe(1);
		world.clock.advance(OUTBOX_LEASE_MS + SECOND);
		expect(await publishPendingLeads(world.deps)).toBe(0);
		expect(await sendCount(world)).toBe(1);
	});

	it('without a sales chat configured, leads stay in the outbox untouched', async () => {
		world = await startLeadsWorld(tempDir());
		const id = await addLead(world);
		expect(await publishPendingLeads({ ...world.deps, chatId: null })).toBe(0);
		const lead = await world.db.lead.findUniqueOrThrow({ where: { id } });
		expect([lead.publishedAt, lead.publishAttempts, lead.nextPublishAt]).toEqual([null, 0, null]);
	});
});
