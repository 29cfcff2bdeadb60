import { describe, expect, it } from 'vitest';
import { createApiToken } from '../../src/lib/server/api-tokens/api-tokens.repository.ts';
import type { Db } from '../../src/lib/server/db/client.ts';
import { DAY, systemClock } from '../../src/lib/server/time/clock.ts';
import { callTrpc, signIn, useBuiltWeb, type BuiltWeb } from '../helpers/built-web.ts';
import { insertOperator, TEST_PASSWORD } from './console-fixtures.ts';

/**
 * /api/v1 against the built web server over HTTP: who gets in (401 with WWW-Authenticate for every
 * kind of bad token, 403 for a missing scope, 429 with Retry-After over the rate), and that tokens and
 * console cookies never stand in for each other.
 */
describe('/api/v1 authentication', () => {
	const { start } = useBuiltWeb('api-v1-auth-');
	const get = (web: BuiltWeb, path: string, headers: Record<string, string> = {}) =>
		fetch(`${web.base}/api/v1${path}`, { headers });
	const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

	async function tokenFor(
		db: Db,
		operatorId: number,
		scopes: ('stats:read' | 'leads:read' | 'leads:write')[],
		options: { days?: number; rate?: number } = {}
	) {
		return createApiToken(db, systemClock, operatorId, {
			name: 'crm',
			scopes,
			expiresInDays: options.days ?? 30,
			ratePerMinute: options.rate ?? 60
		});
	}

	it('401 for a missing, malformed, unknown, revoked or expired token; 403 for a missing scope; 200 otherwise', async () => {
		const { web, db } = await start();
		const owner = await insertOperator(db, systemClock, 'olga', 'owner');
		const good = await tokenFor(db, owner.id, ['stats:read']);
		const revoked = await tokenFor(db, owner.id, ['stats:read']);
		await db.apiToken.update({ where: { id: revoked.id }, data: { revokedAt: new Date().toISOString() } });
		const expired = await tokenFor(db, owner.id, ['stats:read']);
		await db.apiToken.update({
			where: { id: expired.id },
			data: { expiresAt: new Date(Date.now() - DAY).toISOString() }
		});

		const refusals = {
			missing: {},
			basic: { authorization: 'Basic b2xnYTpwYXNz' },
			malformed: bearer('not-our-token'),
			unknown: bearer(`skt_${'a'.repeat(52)}`),
			revoked: bearer(revoked.secret),
			expired: bearer(expired.secret)
		};
		for (const [kind, headers] of Object.entries(refusals)) {
			const response = await get(web, '/jobs/summary', headers);
			expect({
				kind,
				status: response.status,
				challenge: response.headers.get('www-authenticate')?.startsWith('Bearer realm="api"')
			}).toEqual({ kind, status: 401, challenge: true });
			expect((await response.json()).error.code).toBe('unauthorized');
		}
		expect((await get(web, '/jobs/summary', refusals.expired)).headers.get('www-authenticate')).toContain(
			'error="invalid_token"'
		);

		const ok = await get(web, '/jobs/summary', bearer(good.secret));
		expect(ok.status).toBe(200);
		expect(await ok.json()).toEqual({
			byStatus: { queued: 0, processing: 0, delivering: 0, done: 0, failed: 0 },
			total: 0,
			packsDelivered: 0
		});
		expect((await db.apiToken.findUniqueOrThrow({ where: { id: good.id } })).lastUsedAt).not.toBeNull();

		const wrongScope = await get(web, '/leads', bearer(good.secret));
		expect(wrongScope.status).toBe(403);
		expect(wrongScope.headers.get('www-authenticate')).toContain('error="insufficient_scope", scope="leads:read"');
		expect((await get(web, '/no/such/thing', bearer(good.secret))).status).toBe(404);
	}, 60_000);

	it('a token whose owner became a viewer cannot write or read; a removed owner takes the token along', async () => {
		const { web, db } = await start();
		const ivan = await insertOperator(db, systemClock, 'ivan', 'operator');
		const token = await tokenFor(db, ivan.id, ['leads:read', 'leads:write']);
		await db.lead.create({ data: { requestId: 'r1', createdAt: new Date().toISOString(), name: 'Aziz' } });
		const lead = await db.lead.findFirstOrThrow();
		const setStatus = () =>
			fetch(`${web.base}/api/v1/leads/${lead.id}/status`, {
				method: 'POST',
				headers: { ...bearer(token.secret), 'content-type': 'application/json' },
				body: JSON.stringify({ status: 'deal' })
			});

		await db.operator.update({ where: { id: ivan.id }, data: { role: 'viewer' } });
		expect((await setStatus()).status).toBe(403);
		expect((await get(web, '/leads', bearer(token.secret))).status).toBe(403);
		await db.operator.update({ where: { id: ivan.id }, data: { disabledAt: new Date().toISOString() } });
		expect((await get(web, '/leads', bearer(token.secret))).status).toBe(401);
		expect((await db.lead.findUniqueOrThrow({ where: { id: lead.id } })).status).toBe('new');
	}, 60_000);

	it('429 with Retry-After once the token is over its rate; another token is not affected', async () => {
		const { web, db } = await start();
		const owner = await insertOperator(db, systemClock, 'olga', 'owner');
		const slow = await tokenFor(db, owner.id, ['stats:read'], { rate: 3 });
		const other = await tokenFor(db, owner.id, ['stats:read'], { rate: 3 });
		const statuses = [];
		for (let i = 0; i < 4; i++) statuses.push((await get(web, '/events', bearer(slow.secret))).status);
		expect(statuses).toEqual([200, 200, 200, 429]);
		const limited = await get(web, '/events', bearer(slow.secret));
		expect(limited.status).toBe(429);
		// 3 a minute refill one request every 20 s.
		expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
		expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(20);
		expect((await get(web, '/events', bearer(other.secret))).status).toBe(200);
	}, 60_000);

	it('a console cookie never works for /api/v1, a token never works for tRPC or console pages', async () => {
		const { web, db } = await start();
		const owner = await insertOperator(db, systemClock, 'olga', 'owner');
		const token = await tokenFor(db, owner.id, ['stats:read', 'leads:read', 'leads:write']);
		const cookie = await signIn(web, 'olga', TEST_PASSWORD);

		expect((await get(web, '/events', { cookie })).status).toBe(401);
		expect(
			(
				await fetch(`${web.base}/api/v1/leads/1/status`, {
					method: 'POST',
					headers: { cookie, origin: web.base, 'content-type': 'application/json' },
					body: '{"status":"deal"}'
				})
			).status
		).toBe(401);

		expect((await fetch(`${web.base}/api/trpc/apiTokens.list`, { headers: bearer(token.secret) })).status).toBe(401);
		const page = await fetch(`${web.base}/console/leads`, { headers: bearer(token.secret), redirect: 'manual' });
		expect(page.status).toBe(303);
		expect(page.headers.get('location')).toContain('/console/login');
		// The cookie still works where it belongs.
		expect((await callTrpc(web, cookie, 'query', 'apiTokens.list')).status).toBe(200);
	}, 60_000);

	it('bearer writes pass without an Origin header; other /api mutations without one stay refused', async () => {
		const { web, db } = await start();
		const owner = await insertOperator(db, systemClock, 'olga', 'owner');
		const token = await tokenFor(db, owner.id, ['leads:write']);
		await db.lead.create({ data: { requestId: 'r1', createdAt: new Date().toISOString(), name: 'Aziz' } });
		const lead = await db.lead.findFirstOrThrow();
		const write = await fetch(`${web.base}/api/v1/leads/${lead.id}/status`, {
			method: 'POST',
			headers: { ...bearer(token.secret), 'content-type': 'application/json' },
			body: '{"status":"in_work"}'
		});
		expect(write.status).toBe(200);
		const cookie = await signIn(web, 'olga', TEST_PASSWORD);
		const trpc = await fetch(`${web.base}/api/trpc/console.pause`, {
			method: 'POST',
			headers: { cookie, 'content-type': 'application/json' },
			body: '{"reason":"x"}'
		});
		expect(trpc.status).toBe(403);
	}, 60_000);
});
