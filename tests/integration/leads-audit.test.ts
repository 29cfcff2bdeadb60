import { describe, expect, it } from 'vitest';
import { publishPendingLeads } from '../../src/worker/tasks/leads-publish.ts';
import { failAuditOf } from '../helpers/audit-fault.ts';
import { consoleCaller, insertOperator } from './console-fixtures.ts';
import { addLead, ADMIN, GROUP, useLeadsWorlds, type LeadsWorld } from './leads-world.ts';

/**
 * A lead's status change or erasure and its audit row are one transaction: a failure writing the
 * audit row leaves the lead as it was, and /stickers_forget from the sales group is audited too.
 */
describe('lead changes and their audit rows', () => {
	const leads = useLeadsWorlds('leads-audit-');
	let world: LeadsWorld;

	const auditRows = () =>
		world.db.auditLog.findMany({ where: { action: { in: ['lead_status', 'lead_erase'] } }, orderBy: { id: 'asc' } });

	it('the console: an audit row that cannot be written undoes the status change and the erasure', async () => {
		world = await leads.start();
		const api = consoleCaller(
			world.db,
			world.clock,
			world.dir,
			await insertOperator(world.db, world.clock, 'anna', 'operator')
		);
		const id = await addLead(world, { telegram: '@aziza_events', phone: '+998901234567' });
		await publishPendingLeads(world.deps);

		const undo = await failAuditOf(world.db, ['lead_status', 'lead_erase']);
		await expect(api.leads.setStatus({ id, status: 'contacted' })).rejects.toThrow();
		await expect(api.leads.erase({ id })).rejects.toThrow();
		expect(await world.db.lead.findUniqueOrThrow({ where: { id } })).toMatchObject({
			status: 'new',
			phone: '+998901234567',
			erasedAt: null
		});
		expect(await world.db.leadStatusHistory.count()).toBe(0);
		expect(await world.db.leadCardEdit.count()).toBe(0);
		expect(await auditRows()).toEqual([]);

		await undo();
		await api.leads.setStatus({ id, status: 'contacted' });
		await api.leads.erase({ id });
		expect(await world.db.lead.findUniqueOrThrow({ where: { id } })).toMatchObject({
			status: 'contacted',
			phone: null
		});
		expect((await auditRows()).map((row) => [row.actor, row.action, JSON.parse(row.details ?? '{}')])).toEqual([
			['anna', 'lead_status', { leadId: id, status: 'contacted', outcome: 'changed' }],
			['anna', 'lead_erase', { leadId: id, outcome: 'erased' }]
		]);
	});

	it('/stickers_forget in the sales group writes lead_erase as telegram:<admin id>, in the erasure transaction', async () => {
		world = await leads.start();
		await leads.startBot(world);
		const first = await addLead(world, { phone: '+998901111111' });
		const second = await addLead(world, { phone: '+998902222222' });
		await publishPendingLeads(world.deps);
		const say = (text: string) => world.emulator.control.sendUserMessage({ user_id: ADMIN.id, chat_id: GROUP, text });

		await say(`/stickers_forget ${first}`);
		await world.emulator.control.waitForMessage(
			GROUP,
			(m) => m.from_bot && (m.text ?? '').includes(`#${first}`) && /удалены/.test(m.text ?? '')
		);
		expect(
			(await auditRows()).map((row) => [
				row.actor,
				row.ip,
				row.action,
				row.telegramUserId,
				JSON.parse(row.details ?? '{}')
			])
		).toEqual([[`telegram:${ADMIN.id}`, null, 'lead_erase', null, { leadId: first, outcome: 'erased', via: 'bot' }]]);

		const undo = await failAuditOf(world.db, ['lead_erase']);
		const before = await world.emulator.control.chatMessages(GROUP);
		await say(`/stickers_forget ${second}`);
		// The handler fails (the error boundary logs it); the lead keeps its data, no reply claims an erasure.
		await say('/stickers_forget');
		await world.emulator.control.waitForMessage(
			GROUP,
			(m) => m.from_bot && /\/stickers_forget/.test(m.text ?? '') && m.message_id > before.at(-1)!.message_id
		);
		expect(await world.db.lead.findUniqueOrThrow({ where: { id: second } })).toMatchObject({
			phone: '+998902222222',
			erasedAt: null
		});
		expect(await auditRows()).toHaveLength(1);
		const replies = (await world.emulator.control.chatMessages(GROUP)).filter(
			(m) => m.from_bot && m.message_id > before.at(-1)!.message_id
		);
		expect(replies.some((m) => (m.text ?? '').includes(`#${second}`))).toBe(false);
		await undo();
	});
});
