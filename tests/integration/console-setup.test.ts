import { describe, expect, it } from 'vitest';
import {
	createOwner,
	isSetupTokenValid,
	issueSetupToken,
	SETUP_LINK_LIFETIME_MS,
	SETUP_SETTING_KEY,
	setupLinkState
} from '../../src/lib/server/auth/owner-setup.ts';
import { hashSessionToken } from '../../src/lib/server/auth/session-token.ts';
import { announceConsoleSetup } from '../../src/lib/server/auth/request-session.ts';
import { firstRunSecretsPath } from '../../src/lib/server/system/first-run-secrets.ts';
import { FakeClock, HOUR, SECOND } from '../../src/lib/server/time/clock.ts';
import type { AppContext } from '../../src/lib/server/web/app-context.ts';
import { readFileSync } from 'node:fs';
import { useTempDir } from '../helpers/temp-dir.ts';
import { useTestDb } from '../helpers/test-db.ts';

describe('first-run owner setup', () => {
	const freshDb = useTestDb('console-setup-');
	const tempDir = useTempDir('console-setup-secrets-');
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
		expect(await isSetupTokenValid(db, clock, first!)).toBe(false);
		expect(await isSetupTokenValid(db, clock, second!)).toBe(true);
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
		expect(await isSetupTokenValid(db, clock, token)).toBe(false);
		expect((await db.auditLog.findFirstOrThrow()).action).toBe('setup_owner');
	});

	it('a link expires 24 hours after it was issued: the page state says so and no owner can be made with it', async () => {
		const { db, clock } = await setUp();
		const token = (await issueSetupToken(db, clock))!;
		expect(SETUP_LINK_LIFETIME_MS).toBe(24 * HOUR);
		clock.advance(24 * HOUR - SECOND);
		expect(await setupLinkState(db, clock, token)).toBe('open');
		clock.advance(SECOND);
		expect(await setupLinkState(db, clock, token)).toBe('expired');
		expect(await setupLinkState(db, clock, 'some-other-token')).toBe('invalid');
		await expect(createOwner(db, clock, { ...owner, token })).rejects.toThrow(/expired.*Restart the web process/);
		expect(await db.operator.count()).toBe(0);
	});

	it('the next start while no owner exists writes a new link that works for another day; the expired one stays dead', async () => {
		const { db, clock } = await setUp();
		const dataDir = tempDir();
		const app = {
			db,
			clock,
			config: { publicBaseUrl: 'http://localhost:3000', dataDir },
			logger: { warn: () => undefined }
		} as unknown as AppContext;
		const linksInFile = () =>
			[...readFileSync(firstRunSecretsPath(dataDir), 'utf8').matchAll(/setup\?token=(\w+)/g)].map((m) => m[1]!);
		await announceConsoleSetup(app);
		const [first] = linksInFile();
		clock.advance(25 * HOUR);
		expect(await setupLinkState(db, clock, first!)).toBe('expired');
		await announceConsoleSetup(app); // the next start
		const links = linksInFile();
		expect(links).toHaveLength(2);
		expect(readFileSync(firstRunSecretsPath(dataDir), 'utf8')).toContain('for 24 hours');
		expect(await setupLinkState(db, clock, links[1]!)).toBe('open');
		expect(await setupLinkState(db, clock, first!)).toBe('invalid');
		expect(await createOwner(db, clock, { ...owner, token: links[1]! })).toMatchObject({ role: 'owner' });
	});
});
