import { afterEach, describe, expect, it } from 'vitest';
import { publishPendingLeads } from '../../src/worker/tasks/leads-publish.ts';
import { applyPendingCardEdits } from '../../src/worker/tasks/leads-cards.ts';
import { receiveLead } from '../../src/lib/server/leads/lead-intake.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { consoleCaller, insertOperator } from './console-fixtures.ts';
import { addLead, groupMessages, startLeadsWorld, submission, type LeadsWorld } from './leads-world.ts';

describe('the console leads router', () => {
	const tempDir = useTempDir('leads-console-');
	let world: LeadsWorld;
	afterEach(async () => world?.close());

	it('lists with filters, shows the card with history and repeats, sets a status and erases; the worker edits the group card', async () => {
		world = await startLeadsWorld(tempDir());
		const operator = await insertOperator(world.db, world.clock, 'anna', 'operator');
		const api = consoleCaller(world.db, world.clock, world.dir, operator);
		const id = await addLead(world, { name: 'Aziza', telegram: '@aziza_events', phone: '+998901234567' });
		await addLead(world, { name: 'Timur' });
		await receiveLead(world, submission({ telegram: '@aziza_events', guests: '500' }));
		await publishPendingLeads(world.deps);

		expect((await api.leads.list({ search: '@aziza_events' })).rows.map((r) => r.id)).toEqual([id]);
		expect((await api.leads.list({ search: `#${id}` })).rows).toHaveLength(1);
		await api.leads.setStatus({ id, status: 'contacted' });
		expect(await api.leads.setStatus({ id, status: 'contacted' })).toEqual({ outcome: 'unchanged' });
		const listed = await api.leads.list({ search: '', status: 'contacted' });
		expect(listed.rows.map((r) => r.id)).toEqual([id]);
		expect(listed.counts).toMatchObject({ new: 1, contacted: 1 });

		const detail = await api.leads.detail({ id });
		expect(detail.history).toMatchObject([{ status: 'contacted', byUserId: '0', byName: 'console: anna' }]);
		expect(detail.repeatList).toMatchObject([{ guests: '500', telegram: null }]);

		expect(await applyPendingCardEdits(world.deps)).toBe(1);
		expect((await groupMessages(world))[0]?.text).toContain('Связались — поставил(а) console: anna');

		expect(await api.leads.erase({ id })).toMatchObject({ outcome: 'erased' });
		expect(await api.leads.detail({ id })).toMatchObject({
			name: null,
			telegram: null,
			phone: null,
			status: 'contacted'
		});
		await applyPendingCardEdits(world.deps);
		expect((await groupMessages(world))[0]?.text).not.toContain('@aziza_events');
		await expect(api.leads.detail({ id: 999 })).rejects.toThrow('There is no lead #999.');
		const audit = await world.db.auditLog.findMany({
			where: { action: { in: ['lead_status', 'lead_erase'] } },
			orderBy: { id: 'asc' }
		});
		expect(audit.map((row) => [row.actor, row.action, JSON.parse(row.details ?? '{}')])).toEqual([
			['anna', 'lead_status', { leadId: id, status: 'contacted', outcome: 'changed' }],
			['anna', 'lead_status', { leadId: id, status: 'contacted', outcome: 'unchanged' }],
			['anna', 'lead_erase', { leadId: id, outcome: 'erased' }]
		]);
	});

	it('is closed to visitors who are not signed in, and viewers cannot change anything', async () => {
		world = await startLeadsWorld(tempDir());
		const id = await addLead(world);
		await expect(consoleCaller(world.db, world.clock, world.dir, null).leads.list({ search: '' })).rejects.toThrow(
			'Please sign in'
		);
		const viewer = consoleCaller(
			world.db,
			world.clock,
			world.dir,
			await insertOperator(world.db, world.clock, 'val', 'viewer')
		);
		expect((await viewer.leads.list({ search: '' })).rows).toHaveLength(1);
		await expect(viewer.leads.setStatus({ id, status: 'spam' })).rejects.toThrow(/viewer/);
		await expect(viewer.leads.erase({ id })).rejects.toThrow(/viewer/);
	});
});
