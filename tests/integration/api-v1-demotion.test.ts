import { describe, expect, it } from 'vitest';
import { createApiToken } from '../../src/lib/server/api-tokens/api-tokens.repository.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { failAuditOf } from '../helpers/audit-fault.ts';
import { callTrpc, signIn, useBuiltWeb } from '../helpers/built-web.ts';
import { insertOperator, TEST_PASSWORD } from './console-fixtures.ts';

/**
 * /api/v1 over HTTP against the built server: a token acts with its operator's role as it is now
 * (a demotion to viewer ends its access at the next request, and trims its stored scopes), and the
 * API's lead_status audit row is written with the change or not at all.
 */
describe('/api/v1 tokens after a role change, and the audit of API writes', () => {
	const { start } = useBuiltWeb('api-v1-demotion-');

	it('an owner demoted by another owner: as operator the token still works, as viewer the next request is 403', async () => {
		const { web, db } = await start();
		const olga = await insertOperator(db, systemClock, 'olga', 'owner');
		await insertOperator(db, systemClock, 'pavel', 'owner');
		const token = await createApiToken(db, systemClock, olga.id, {
			name: 'crm',
			scopes: ['stats:read', 'leads:read', 'leads:write'],
			expiresInDays: 30,
			ratePerMinute: 600
		});
		await db.lead.create({
			data: { requestId: 'r1', createdAt: new Date().toISOString(), name: 'Aziz', phone: '+998901234567' }
		});
		const call = (path: string) =>
			fetch(`${web.base}/api/v1${path}`, { headers: { authorization: `Bearer ${token.secret}` } });
		expect((await call('/leads')).status).toBe(200);

		const pavel = await signIn(web, 'pavel', TEST_PASSWORD);
		expect(
			(await callTrpc(web, pavel, 'mutation', 'operators.setRole', { operatorId: olga.id, role: 'operator' })).status
		).toBe(200);
		expect((await call('/leads')).status).toBe(200);
		expect((await db.apiToken.findUniqueOrThrow({ where: { id: token.id } })).scopes).toBe(
			'stats:read,leads:read,leads:write'
		);

		expect(
			(await callTrpc(web, pavel, 'mutation', 'operators.setRole', { operatorId: olga.id, role: 'viewer' })).status
		).toBe(200);
		const refused = await call('/leads');
		expect(refused.status).toBe(403);
		expect(refused.headers.get('www-authenticate')).toContain('error="insufficient_scope", scope="leads:read"');
		const body = await refused.json();
		expect(body.error.code).toBe('insufficient_scope');
		expect(JSON.stringify(body)).not.toContain('+998901234567');
		expect((await call('/leads/export.csv')).status).toBe(403);
		expect((await call('/events')).status).toBe(403);
		// The role change's transaction took the scopes off the token and said so in the audit entry.
		expect((await db.apiToken.findUniqueOrThrow({ where: { id: token.id } })).scopes).toBe('');
		const audit = await db.auditLog.findMany({ where: { action: 'change_operator_role' }, orderBy: { id: 'asc' } });
		expect(audit.map((row) => JSON.parse(row.details ?? '{}'))).toMatchObject([
			{ username: 'olga', from: 'owner', to: 'operator', tokensTrimmed: 0 },
			{ username: 'olga', from: 'operator', to: 'viewer', tokensTrimmed: 1 }
		]);
	}, 90_000);

	it('the role is checked on every request, also when the stored scopes were not trimmed', async () => {
		const { web, db } = await start();
		const ivan = await insertOperator(db, systemClock, 'ivan', 'operator');
		const token = await createApiToken(db, systemClock, ivan.id, {
			name: 'crm',
			scopes: ['leads:read'],
			expiresInDays: 30,
			ratePerMinute: 600
		});
		const call = () => fetch(`${web.base}/api/v1/leads`, { headers: { authorization: `Bearer ${token.secret}` } });
		expect((await call()).status).toBe(200);
		await db.operator.update({ where: { id: ivan.id }, data: { role: 'viewer' } });
		const refused = await call();
		expect(refused.status).toBe(403);
		expect((await refused.json()).error.message).toBe(
			'This token belongs to ivan, whose role is now viewer; a viewer may not use the leads:read scope.'
		);
	}, 90_000);

	it('a status change through the API whose audit row cannot be written leaves the lead as it was', async () => {
		const { web, db } = await start();
		const olga = await insertOperator(db, systemClock, 'olga', 'owner');
		const token = await createApiToken(db, systemClock, olga.id, {
			name: 'crm',
			scopes: ['leads:write'],
			expiresInDays: 30,
			ratePerMinute: 600
		});
		const lead = await db.lead.create({ data: { requestId: 'r1', createdAt: new Date().toISOString(), name: 'Aziz' } });
		const setStatus = () =>
			fetch(`${web.base}/api/v1/leads/${lead.id}/status`, {
				method: 'POST',
				headers: { authorization: `Bearer ${token.secret}`, 'content-type': 'application/json' },
				body: '{"status":"deal"}'
			});
		const undo = await failAuditOf(db, ['lead_status']);
		expect((await setStatus()).status).toBe(500);
		expect(await db.lead.findUniqueOrThrow({ where: { id: lead.id } })).toMatchObject({
			status: 'new',
			statusAt: null
		});
		expect(await db.leadStatusHistory.count()).toBe(0);
		await undo();
		expect((await setStatus()).status).toBe(200);
		expect(await db.auditLog.count({ where: { action: 'lead_status' } })).toBe(1);
	}, 90_000);
});
