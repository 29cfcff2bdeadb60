import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
	createOperatorSession,
	invalidateOperatorSession,
	validateOperatorSession
} from '../../src/lib/server/auth/operator-session.ts';
import { changeOperatorRole, removeOperator } from '../../src/lib/server/auth/operators.ts';
import { loadPseudonymKey } from '../../src/lib/server/lifecycle/pseudonym.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { runRetention } from '../../src/worker/tasks/retention.task.ts';
import { hashSessionToken } from '../../src/lib/server/auth/session-token.ts';
import { signIn } from '../../src/lib/server/auth/sign-in.ts';
import { DAY, FakeClock } from '../../src/lib/server/time/clock.ts';
import { useTestDb } from '../helpers/test-db.ts';
import { insertOperator, TEST_PASSWORD } from './console-fixtures.ts';
import { localFileStore } from '../helpers/file-store.ts';

describe('console sessions', () => {
	const freshDb = useTestDb('auth-sessions-');
	async function setUp() {
		const { db, dbPath } = await freshDb();
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const owner = await insertOperator(db, clock, 'olga', 'owner');
		return { db, dbPath, clock, owner, deps: { db, clock, ipSalt: 'test-salt-0123456789' } };
	}

	it('stores only the SHA-256 of a ≥128-bit token: neither the table nor the file holds the token', async () => {
		const { db, dbPath, deps } = await setUp();
		const result = await signIn(deps, { username: 'olga', password: TEST_PASSWORD, ip: '10.0.0.1' });
		if (!result.ok) throw new Error('sign-in failed');
		const token = result.session.token;
		expect(token).toMatch(/^[a-z2-7]{32}$/); // 20 random bytes = 160 bits in base32
		const rows = await db.operatorSession.findMany();
		expect(rows).toHaveLength(1);
		expect(rows[0]!.id).toBe(hashSessionToken(token));
		expect(rows[0]!.id).not.toContain(token);
		await db.$disconnect();
		for (const file of [dbPath, `${dbPath}-wal`]) {
			if (existsSync(file)) expect(readFileSync(file).includes(Buffer.from(token))).toBe(false);
		}
	});

	it('gives a new token at every sign-in', async () => {
		const { deps } = await setUp();
		const first = await signIn(deps, { username: 'olga', password: TEST_PASSWORD, ip: '10.0.0.1' });
		const second = await signIn(deps, { username: 'OLGA ', password: TEST_PASSWORD, ip: '10.0.0.1' });
		expect(first.ok && second.ok).toBe(true);
		if (first.ok && second.ok) expect(first.session.token).not.toBe(second.session.token);
	});

	it('refuses an expired cookie and deletes its row', async () => {
		const { db, clock, owner } = await setUp();
		const session = await createOperatorSession(db, clock, owner.id);
		clock.advance(30 * DAY + 1000);
		expect(await validateOperatorSession(db, clock, session.token)).toBeNull();
		expect(await db.operatorSession.count()).toBe(0);
		const idle = await createOperatorSession(db, clock, owner.id);
		clock.advance(7 * DAY + 1000); // a week without use
		expect(await validateOperatorSession(db, clock, idle.token)).toBeNull();
		expect(await db.operatorSession.count()).toBe(0);
	});

	it('slides: untouched above 6 days left, pushed to 7 days when under 6, never past 30 days after sign-in', async () => {
		const { db, clock, owner } = await setUp();
		const session = await createOperatorSession(db, clock, owner.id);
		clock.advance(DAY / 2);
		const early = await validateOperatorSession(db, clock, session.token);
		expect(early?.renewed).toBe(false);
		clock.advance(DAY);
		const late = await validateOperatorSession(db, clock, session.token);
		expect(late?.renewed).toBe(true);
		expect(late?.expiresAt.toISOString()).toBe(new Date(clock.now().getTime() + 7 * DAY).toISOString());
		// Used every 5 days, it lives on past any single week…
		for (let day = 1.5; day + 5 < 30; day += 5) {
			clock.advance(5 * DAY);
			expect(await validateOperatorSession(db, clock, session.token)).not.toBeNull();
		}
		// …with the last renewal stopping at the absolute end, and not a moment beyond it.
		const last = await validateOperatorSession(db, clock, session.token);
		expect(last?.expiresAt.getTime()).toBeLessThanOrEqual(Date.parse('2026-03-01T10:00:00.000Z') + 30 * DAY);
		clock.set(new Date(Date.parse('2026-03-01T10:00:00.000Z') + 30 * DAY));
		expect(await validateOperatorSession(db, clock, session.token)).toBeNull();
		expect(await db.operatorSession.count()).toBe(0);
	});

	it('refuses the cookie of a removed operator and of a signed-out session', async () => {
		const { db, clock, owner } = await setUp();
		const viewer = await insertOperator(db, clock, 'vera', 'viewer');
		const viewerSession = await createOperatorSession(db, clock, viewer.id);
		const ownerSession = await createOperatorSession(db, clock, owner.id);
		expect(await validateOperatorSession(db, clock, viewerSession.token)).not.toBeNull();

		const removed = await removeOperator(db, clock, { name: 'olga', ip: '10.0.0.1', operatorId: owner.id }, viewer.id);
		expect(removed.sessionsEnded).toBe(1);
		expect(await validateOperatorSession(db, clock, viewerSession.token)).toBeNull();

		await invalidateOperatorSession(db, ownerSession.token);
		expect(await validateOperatorSession(db, clock, ownerSession.token)).toBeNull();
	});

	it('a role change ends every session of that operator; never your own role, never the last owner', async () => {
		const { db, clock, owner } = await setUp();
		const vera = await insertOperator(db, clock, 'vera', 'operator');
		const sessions = [await createOperatorSession(db, clock, vera.id), await createOperatorSession(db, clock, vera.id)];
		const ownerSession = await createOperatorSession(db, clock, owner.id);
		const actor = { name: 'olga', ip: '10.0.0.1', operatorId: owner.id };

		expect(await changeOperatorRole(db, clock, actor, vera.id, 'viewer')).toEqual({ sessionsEnded: 2 });
		for (const session of sessions) expect(await validateOperatorSession(db, clock, session.token)).toBeNull();
		const again = await createOperatorSession(db, clock, vera.id);
		expect((await validateOperatorSession(db, clock, again.token))?.operator.role).toBe('viewer');
		expect(await changeOperatorRole(db, clock, actor, vera.id, 'viewer')).toEqual({ sessionsEnded: 0 }); // no change, nobody signed out
		expect(await validateOperatorSession(db, clock, again.token)).not.toBeNull();

		await expect(changeOperatorRole(db, clock, actor, owner.id, 'viewer')).rejects.toThrow(/your own role/);
		await expect(
			changeOperatorRole(db, clock, { ...actor, operatorId: vera.id }, owner.id, 'operator')
		).rejects.toThrow(/last owner/);
		expect(await validateOperatorSession(db, clock, ownerSession.token)).not.toBeNull();
		expect(
			(await db.auditLog.findMany({ where: { action: 'change_operator_role' } })).map((row) => JSON.parse(row.details!))
		).toEqual([{ username: 'vera', from: 'operator', to: 'viewer', sessionsEnded: 2, tokensTrimmed: 0 }]);
	});

	it('keeps passwords as argon2id with at least 19 MiB and 2 passes', async () => {
		const { db } = await setUp();
		const row = await db.operator.findFirstOrThrow({ where: { username: 'olga' } });
		const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(row.passwordHash);
		expect(match).not.toBeNull();
		expect(Number(match![1])).toBeGreaterThanOrEqual(19_456);
		expect(Number(match![2])).toBeGreaterThanOrEqual(2);
	});

	it('refuses malformed and unknown tokens without touching other sessions', async () => {
		const { db, clock, owner } = await setUp();
		await createOperatorSession(db, clock, owner.id);
		expect(await validateOperatorSession(db, clock, 'not a token')).toBeNull();
		expect(await validateOperatorSession(db, clock, 'a'.repeat(32))).toBeNull();
		expect(await db.operatorSession.count()).toBe(1);
	});

	it('the hourly retention pass removes expired sessions and throttle rows quiet for a day, nothing else', async () => {
		const { db, dbPath, clock, owner, deps } = await setUp();
		const old = await createOperatorSession(db, clock, owner.id);
		await signIn(deps, { username: 'olga', password: 'wrong-password', ip: '10.0.0.9' });
		clock.advance(20 * DAY);
		const fresh = await createOperatorSession(db, clock, owner.id);
		clock.advance(6 * DAY);
		const dataDir = path.dirname(dbPath);
		await runRetention({
			db,
			clock,
			logger: silentLogger,
			fileStore: localFileStore(dataDir),
			dbPath,
			pseudonymKey: loadPseudonymKey(dataDir),
			retentionDays: 90
		});
		expect((await db.operatorSession.findMany()).map((s) => s.id)).toEqual([hashSessionToken(fresh.token)]);
		expect(await validateOperatorSession(db, clock, old.token)).toBeNull();
		expect(await db.loginThrottle.count()).toBe(0);
	});
});
