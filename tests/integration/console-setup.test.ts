import { describe, expect, it } from 'vitest';
import { createOwner, isSetupTokenValid, issueSetupToken, SETUP_SETTING_KEY } from '../../src/lib/server/auth/owner-setup.ts';
import { hashSessionToken } from '../../src/lib/server/auth/session-token.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import { useTestDb } from '../helpers/test-db.ts';

describe('first-run owner setup', () => {
	const freshDb = useTestDb('console-setup-');
	async function setUp() {
		const { db } = await freshDb();
		return { db, clock: new FakeClock('2026-03-01T10:00:00.000Z') };
	}
	const owner = { username: 'olga', password: 'a long owner password', ip: '127.0.0.1' };

	it('stores only the hash of the one-time token, and a restart replaces it', async () => {
		const { db, clock } = await setUp();
		const first = await issueSetupToken(db, clock);
		expect(first).toMatch(/^[a-z2-7]{32}$/);
		const stored = (await db.setting.findUniqueOrThrow({ where: { key: SETUP_SETTING_KEY } })).value;
		expect(stored).not.toContain(first!);
		expect(JSON.parse(stored).hash).toBe(hashSessionToken(first!));

		const second = await issueSetupToken(db, clock);
		expect(await isSetupTokenValid(db, first!)).toBe(false);
		expect(await isSetupTokenValid(db, second!)).toBe(true);
	});

	it('creates the owner once with the right token; afterwards setup is closed for good', async () => {
		const { db, clock } = await setUp();
		const token = (await issueSetupToken(db, clock))!;
		await expect(createOwner(db, clock, { ...owner, token: 'wrong-token' })).rejects.toThrow(/not valid/);
		await expect(createOwner(db, clock, { ...owner, token, password: 'short' })).rejects.toThrow(/at least 10/);
		expect(await db.operator.count()).toBe(0);

		const created = await createOwner(db, clock, { ...owner, token });
		expect(created).toMatchObject({ username: 'olga', role: 'owner' });
		expect(await db.setting.findUnique({ where: { key: SETUP_SETTING_KEY } })).toBeNull();
		await expect(createOwner(db, clock, { ...owner, username: 'mallory', token })).rejects.toThrow(/already done/);
		expect(await issueSetupToken(db, clock)).toBeNull();
		expect(await isSetupTokenValid(db, token)).toBe(false);
		expect((await db.auditLog.findFirstOrThrow()).action).toBe('setup_owner');
	});
});
