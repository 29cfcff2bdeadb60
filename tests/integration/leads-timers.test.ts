import { afterEach, describe, expect, it } from 'vitest';
import { setLeadStatus } from '../../src/lib/server/leads/lead-status.ts';
import { readSetting } from '../../src/lib/server/settings/settings.repository.ts';
import { DAY, HOUR, MINUTE } from '../../src/lib/server/time/clock.ts';
import { applyPendingCardEdits } from '../../src/worker/tasks/leads-cards.ts';
import { postDailyDigest } from '../../src/worker/tasks/leads-digest.ts';
import { publishPendingLeads } from '../../src/worker/tasks/leads-publish.ts';
import { remindAboutIdleLeads } from '../../src/worker/tasks/leads-reminders.ts';
import { eraseExpiredLeadData } from '../../src/worker/tasks/leads-retention.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { addLead, groupMessages, startLeadsWorld, type LeadsWorld } from './leads-world.ts';

const admin = { telegramUserId: 601_000_001n, name: 'Malika' };

describe('reminders, the daily digest and retention with a fake clock', () => {
	const tempDir = useTempDir('leads-timers-');
	let world: LeadsWorld;
	afterEach(async () => world?.close());

	const texts = async () => (await groupMessages(world)).map((m) => m.text ?? '');

	it('a lead without a status for over 2 h gets one reminder, also across a restart; a lead with a status gets none', async () => {
		world = await startLeadsWorld(tempDir());
		const idle = await addLead(world);
		const handled = await addLead(world);
		await publishPendingLeads(world.deps);
		world.clock.advance(HOUR);
		await setLeadStatus(world, handled, 'contacted', admin);

		world.clock.advance(HOUR - MINUTE); // 1 h 59 min after the lead
		expect(await remindAboutIdleLeads(world.deps)).toBe(0);
		world.clock.advance(2 * MINUTE);
		expect(await remindAboutIdleLeads(world.deps)).toBe(1);
		expect(await remindAboutIdleLeads(world.deps)).toBe(0);
		await world.restart();
		world.clock.advance(DAY);
		expect(await remindAboutIdleLeads(world.deps)).toBe(0);

		const reminders = (await texts()).filter((t) => t.startsWith('⏰'));
		expect(reminders).toEqual([`⏰ #stickers_${idle} больше 2 часов без статуса. Кто возьмёт?`]);
		expect((await world.db.lead.findUniqueOrThrow({ where: { id: idle } })).remindedAt).not.toBeNull();
		expect((await world.db.lead.findUniqueOrThrow({ where: { id: handled } })).remindedAt).toBeNull();
	});

	it('a failed reminder is released and sent on a later pass', async () => {
		world = await startLeadsWorld(tempDir());
		await addLead(world);
		await publishPendingLeads(world.deps);
		world.clock.advance(3 * HOUR);
		await world.emulator.control.injectFault({ method: 'sendMessage', kind: '5xx' });
		expect(await remindAboutIdleLeads(world.deps)).toBe(0);
		expect(await world.db.lead.count({ where: { remindedAt: null } })).toBe(1);
		expect(await remindAboutIdleLeads(world.deps)).toBe(1);
	});

	it('the digest goes out once per Tashkent date from 09:00, across a restart and across Tashkent midnight', async () => {
		// 2026-06-01 08:59 in Tashkent (UTC+5).
		world = await startLeadsWorld(tempDir(), '2026-06-01T03:59:00.000Z');
		world.clock.set('2026-05-31T19:30:00.000Z'); // 00:30 on 1 June in Tashkent, still 31 May in UTC
		await addLead(world);
		world.clock.set('2026-05-31T18:30:00.000Z'); // 23:30 on 31 May in Tashkent
		await addLead(world);
		world.clock.set('2026-06-01T03:59:00.000Z');
		expect(await postDailyDigest(world.deps)).toBe(false);

		world.clock.set('2026-06-01T04:00:00.000Z'); // 09:00 on 1 June in Tashkent
		expect(await postDailyDigest(world.deps)).toBe(true);
		expect(await postDailyDigest(world.deps)).toBe(false);
		expect(await readSetting(world.db, 'stickers_digest_last')).toBe('2026-06-01');
		await world.restart();
		world.clock.set('2026-06-01T18:59:00.000Z'); // 23:59 in Tashkent
		expect(await postDailyDigest(world.deps)).toBe(false);

		world.clock.set('2026-06-01T19:01:00.000Z'); // 00:01 on 2 June in Tashkent, still 1 June in UTC
		expect(await postDailyDigest(world.deps)).toBe(false); // the new date, but before 09:00
		world.clock.set('2026-06-02T04:00:00.000Z');
		await world.restart();
		expect(await postDailyDigest(world.deps)).toBe(true);
		expect(await postDailyDigest(world.deps)).toBe(false);
		expect(await readSetting(world.db, 'stickers_digest_last')).toBe('2026-06-02');

		const digests = (await texts()).filter((t) => t.startsWith('📊'));
		expect(digests).toHaveLength(2);
		expect(digests[0]).toContain('Сводка по заявкам за 2026-05-31');
		expect(digests[0]).toContain('Новых заявок: 1'); // only the 23:30 lead was on 31 May in Tashkent
		expect(digests[1]).toContain('Сводка по заявкам за 2026-06-01');
		expect(digests[1]).toContain('Новых заявок: 1');
	});

	it('a digest that fails to send is retried the same day', async () => {
		world = await startLeadsWorld(tempDir(), '2026-06-01T05:00:00.000Z');
		await world.emulator.control.injectFault({ method: 'sendMessage', kind: '5xx' });
		expect(await postDailyDigest(world.deps)).toBe(false);
		expect(await readSetting(world.db, 'stickers_digest_last')).toBeNull();
		expect(await postDailyDigest(world.deps)).toBe(true);
	});

	it('retention: spam 30 days after its last status change, others 365 days from status_at or created_at; row, status and history stay', async () => {
		world = await startLeadsWorld(tempDir());
		const spam = await addLead(world, { comment: 'buy cheap', telegram: '@spammer_x' });
		const untouched = await addLead(world);
		const dealLater = await addLead(world);
		await publishPendingLeads(world.deps);
		await setLeadStatus(world, spam, 'spam', admin);
		await world.db.leadRepeat.create({
			data: {
				leadId: spam,
				requestId: crypto.randomUUID(),
				at: world.clock.now().toISOString(),
				telegram: '@spammer_y',
				phone: '+998900000001',
				comment: 'again',
				ipHash: 'b'.repeat(32),
				guests: '5'
			}
		});
		world.clock.advance(10 * DAY);
		await setLeadStatus(world, dealLater, 'deal', admin);

		world.clock.advance(20 * DAY - MINUTE); // spam: 30 days minus a minute after its status
		expect(await eraseExpiredLeadData(world.deps)).toEqual([]);
		world.clock.advance(2 * MINUTE);
		expect(await eraseExpiredLeadData(world.deps)).toEqual([spam]);

		world.clock.advance(335 * DAY); // 365 days + 1 min after creation
		expect(await eraseExpiredLeadData(world.deps)).toEqual([untouched]);
		world.clock.advance(10 * DAY);
		expect(await eraseExpiredLeadData(world.deps)).toEqual([dealLater]);

		const erased = await world.db.lead.findUniqueOrThrow({ where: { id: spam } });
		expect(erased).toMatchObject({
			name: null,
			telegram: null,
			phone: null,
			comment: null,
			ipHash: null,
			status: 'spam',
			eventDate: '15 June',
			guests: '200'
		});
		expect(erased.erasedAt).not.toBeNull();
		expect(await world.db.leadRepeat.findFirstOrThrow({ where: { leadId: spam } })).toMatchObject({
			telegram: null,
			phone: null,
			comment: null,
			ipHash: null,
			guests: '5'
		});
		expect(await world.db.leadStatusHistory.count({ where: { leadId: spam } })).toBe(1);

		// The cards in the group lose the contact details too.
		await applyPendingCardEdits(world.deps);
		const cards = await groupMessages(world);
		expect(cards.every((card) => card.text?.includes('Контактные данные удалены'))).toBe(true);
		expect(cards.some((card) => card.text?.includes('@spammer_x'))).toBe(false);
		// Erasure is final: erased_at does not move on a later pass.
		world.clock.advance(DAY);
		expect(await eraseExpiredLeadData(world.deps)).toEqual([]);
		expect((await world.db.lead.findUniqueOrThrow({ where: { id: spam } })).erasedAt).toBe(erased.erasedAt);
	});
});
