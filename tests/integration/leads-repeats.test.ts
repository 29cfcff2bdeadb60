import { afterEach, describe, expect, it } from 'vitest';
import { receiveLead } from '../../src/lib/server/leads/lead-intake.ts';
import { HOUR, MINUTE } from '../../src/lib/server/time/clock.ts';
import { publishPendingLeads } from '../../src/worker/tasks/leads-publish.ts';
import { notifyPendingRepeats } from '../../src/worker/tasks/leads-repeats.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { eventually, GROUP, groupMessages, startLeadsWorld, submission, type LeadsWorld } from './leads-world.ts';

describe('repeat contacts within 24 hours', () => {
	const tempDir = useTempDir('leads-repeats-');
	let world: LeadsWorld;
	afterEach(async () => world?.close());

	const original = () =>
		submission({
			name: 'Aziza',
			telegram: '@Aziza_Events',
			phone: '+998901234567',
			eventDate: '15 June',
			guests: '200',
			comment: 'Wedding',
			locale: 'ru',
			utmSource: 'instagram'
		});

	it('the same @username (any case) or phone within 24 h stores a repeat with only the fields that differ', async () => {
		world = await startLeadsWorld(tempDir());
		const first = await receiveLead(world, original());
		expect(first.outcome).toBe('lead');

		world.clock.advance(5 * HOUR);
		const byUsername = submission({
			name: 'Aziza K',
			telegram: '@aziza_events',
			phone: '+998907654321',
			eventDate: '15 June',
			guests: '250',
			comment: 'Wedding',
			locale: 'en',
			utmSource: 'google'
		});
		expect(await receiveLead(world, byUsername)).toEqual({
			outcome: 'repeat',
			leadId: (first as { leadId: number }).leadId
		});

		world.clock.advance(HOUR);
		const byPhone = submission({
			telegram: undefined,
			phone: '+998901234567',
			eventDate: '16 June',
			guests: '200',
			comment: undefined,
			locale: 'ru',
			utmSource: undefined
		});
		expect((await receiveLead(world, byPhone)).outcome).toBe('repeat');

		const repeats = await world.db.leadRepeat.findMany({ orderBy: { id: 'asc' } });
		expect(
			repeats.map(({ telegram, phone, eventDate, guests, comment, locale, utmSource }) => ({
				telegram,
				phone,
				eventDate,
				guests,
				comment,
				locale,
				utmSource
			}))
		).toEqual([
			{
				telegram: null,
				phone: '+998907654321',
				eventDate: null,
				guests: '250',
				comment: null,
				locale: 'en',
				utmSource: 'google'
			},
			{ telegram: null, phone: null, eventDate: '16 June', guests: null, comment: null, locale: 'ru', utmSource: null }
		]);
		expect(await world.db.lead.count()).toBe(1);
		// The same request_id again (a retry of the repeat) adds nothing.
		expect((await receiveLead(world, byPhone)).outcome).toBe('already_received');
		expect(await world.db.leadRepeat.count()).toBe(2);
	});

	it('after 24 h the same contact is a new lead', async () => {
		world = await startLeadsWorld(tempDir());
		await receiveLead(world, original());
		world.clock.advance(24 * HOUR + MINUTE);
		expect((await receiveLead(world, original())).outcome).toBe('lead');
		expect(await world.db.lead.count()).toBe(2);
		expect(await world.db.leadRepeat.count()).toBe(0);
	});

	it('a repeat pings the posted card with what differs and the card shows the count; one before the card is absorbed', async () => {
		world = await startLeadsWorld(tempDir());
		const first = (await receiveLead(world, original())) as { leadId: number };
		world.clock.advance(MINUTE);
		await receiveLead(
			world,
			submission({
				telegram: '@aziza_events',
				phone: '+998901234567',
				guests: '200',
				eventDate: '15 June',
				comment: 'Wedding'
			})
		);
		await publishPendingLeads(world.deps);
		const early = await world.db.leadRepeat.findFirstOrThrow();
		expect(early.notifiedAt).not.toBeNull();
		expect(early.notifyError).toMatch(/^absorbed/);
		expect((await groupMessages(world))[0]?.text).toContain('Повторные заявки: 1');

		world.clock.advance(HOUR);
		await receiveLead(
			world,
			submission({
				telegram: undefined,
				phone: '+998901234567',
				guests: '300',
				eventDate: '15 June',
				comment: 'Now a corporate party'
			})
		);
		expect(await notifyPendingRepeats(world.deps)).toBe(1);
		expect(await notifyPendingRepeats(world.deps)).toBe(0);
		const [card, ping] = await groupMessages(world);
		expect(ping?.text).toContain(`🔁 Повторная заявка по #stickers_${first.leadId}`);
		expect(ping?.text).toContain('Гостей: 300');
		expect(ping?.text).toContain('Комментарий: Now a corporate party');
		expect(ping?.text).not.toContain('Телефон');
		expect(ping?.reply_to_message_id).toBe(card?.message_id);
		await eventually(
			async () => (await world.emulator.control.chatMessages(GROUP))[0]?.text ?? '',
			(text) => text.includes('Повторные заявки: 2')
		);
		expect((await world.db.leadRepeat.findMany({ orderBy: { id: 'asc' } }))[1]?.notifiedAt).not.toBeNull();
	});

	it('a failing ping backs off and is retried; an erased lead is not matched again', async () => {
		world = await startLeadsWorld(tempDir());
		const first = (await receiveLead(world, original())) as { leadId: number };
		await publishPendingLeads(world.deps);
		await receiveLead(world, submission({ telegram: '@aziza_events', guests: '10' }));
		await world.emulator.control.injectFault({ method: 'sendMessage', kind: '5xx' });
		expect(await notifyPendingRepeats(world.deps)).toBe(0);
		const failed = await world.db.leadRepeat.findFirstOrThrow();
		expect(failed).toMatchObject({ notifiedAt: null, notifyAttempts: 1 });
		expect(failed.notifyError).toMatch(/Internal Server Error/);
		world.clock.advance(MINUTE);
		expect(await notifyPendingRepeats(world.deps)).toBe(1);

		await world.db.lead.update({ where: { id: first.leadId }, data: { erasedAt: world.clock.now().toISOString() } });
		await receiveLead(world, submission({ phone: '+998901234567', guests: '11' }));
		expect(await world.db.lead.count()).toBe(2); // an erased lead is not matched: this is a new lead
	});
});
