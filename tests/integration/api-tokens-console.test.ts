import { afterEach, describe, expect, it } from 'vitest';
import { authenticateBearer } from '../../src/lib/server/api-tokens/bearer-auth.ts';
import { hashTokenSecret } from '../../src/lib/server/api-tokens/token-secret.ts';
import type { Db } from '../../src/lib/server/db/client.ts';
import { DAY, MINUTE, SECOND } from '../../src/lib/server/time/clock.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { startConsoleWorld } from './console-fixtures.ts';

/** The console's token procedures (the real router, a real SQLite file) and the token's clock rules. */
describe('API tokens in the console', () => {
	const tempDir = useTempDir('api-tokens-console-');
	let db: Db;
	afterEach(async () => db?.$disconnect());

	async function setUp() {
		const world = await startConsoleWorld(tempDir());
		db = world.db;
		const { clock, owner, ivan, vera } = world;
		const as = (who: typeof owner) => world.callerFor(who).apiTokens;
		return { clock, owner, ivan, vera, as };
	}

	it('stores only the hash, shows the secret once, scopes who sees and revokes what, audits both', async () => {
		const { owner, ivan, vera, as } = await setUp();
		const made = await as(ivan).create({ name: 'crm', scopes: ['leads:read', 'leads:read'], expiresInDays: 30 });
		expect(made.secret).toMatch(/^skt_[a-z2-7]{52}$/);
		const row = await db.apiToken.findUniqueOrThrow({ where: { id: made.id } });
		expect({ hash: row.secretHash, scopes: row.scopes, rate: row.ratePerMinute, expiresAt: row.expiresAt }).toEqual({
			hash: hashTokenSecret(made.secret),
			scopes: 'leads:read',
			rate: 60,
			expiresAt: '2026-07-01T10:00:00.000Z'
		});
		expect(JSON.stringify(await db.apiToken.findMany())).not.toContain(made.secret.slice(10));
		await as(owner).create({ name: 'dashboard', scopes: ['stats:read'], expiresInDays: 7 });

		expect((await as(ivan).list()).map((t) => t.name)).toEqual(['crm']);
		expect((await as(owner).list()).map((t) => `${t.name}:${t.owner}`)).toEqual(['dashboard:olga', 'crm:ivan']);
		expect(JSON.stringify(await as(owner).list())).not.toContain(made.secret);
		await expect(as(vera).create({ name: 'x', scopes: ['stats:read'], expiresInDays: 7 })).rejects.toMatchObject({
			code: 'FORBIDDEN'
		});
		await expect(as(ivan).create({ name: 'x', scopes: [], expiresInDays: 7 })).rejects.toMatchObject({
			code: 'BAD_REQUEST'
		});
		await expect(as(ivan).create({ name: 'x', scopes: ['stats:read'], expiresInDays: 400 })).rejects.toMatchObject({
			code: 'BAD_REQUEST'
		});

		const dashboard = (await as(owner).list())[0]!;
		await expect(as(ivan).revoke({ id: dashboard.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
		expect(await as(owner).revoke({ id: made.id })).toEqual({ revoked: true });
		await expect(as(owner).revoke({ id: made.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
		expect((await as(ivan).list())[0]!.state).toBe('revoked');
		const audit = await db.auditLog.findMany({ orderBy: { id: 'asc' } });
		expect(audit.map((a) => `${a.action}:${a.actor}`)).toEqual([
			'api_token_create:ivan',
			'api_token_create:olga',
			'api_token_revoke:olga'
		]);
	});

	it('a token expires on its clock; last use is written at most once a minute', async () => {
		const { clock, ivan, as } = await setUp();
		const made = await as(ivan).create({ name: 'crm', scopes: ['stats:read'], expiresInDays: 1 });
		const check = () => authenticateBearer(db, clock.now(), `Bearer ${made.secret}`);
		const lastUsed = async () => (await db.apiToken.findUniqueOrThrow({ where: { id: made.id } })).lastUsedAt;

		expect((await check()).ok).toBe(true);
		expect(await lastUsed()).toBe('2026-06-01T10:00:00.000Z');
		clock.advance(30 * SECOND);
		await check();
		expect(await lastUsed()).toBe('2026-06-01T10:00:00.000Z');
		clock.advance(MINUTE);
		await check();
		expect(await lastUsed()).toBe('2026-06-01T10:01:30.000Z');

		clock.advance(DAY);
		expect(await check()).toEqual({ ok: false, reason: 'expired' });
		expect((await as(ivan).list())[0]!.state).toBe('expired');
	});
});
