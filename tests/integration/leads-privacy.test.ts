import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { type Db } from '../../src/lib/server/db/client.ts';
import { RATE_LIMIT } from '../../src/lib/server/leads/lead-intake.ts';
import { submitLandingForm } from '../../src/lib/server/leads/landing-submission.ts';
import { DEV_SALT_FILE, hashClientIp, loadIpSalt } from '../../src/lib/server/privacy/ip-hash.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { createTestDb } from '../helpers/test-db.ts';

/** The raw visitor IP is hashed at once and appears nowhere — not in the database, not in the logs. */
const IPV4 = '203.0.113.77';
const IPV6 = '2001:db8:85a3::8a2e:370:7334';

function form(fields: Record<string, string>): FormData {
	const data = new FormData();
	for (const [key, value] of Object.entries({ request_id: randomUUID(), name: 'Aziza', ...fields }))
		data.set(key, value);
	return data;
}

describe('landing submissions and the visitor IP', () => {
	const tempDir = useTempDir('leads-privacy-');
	let db: Db | undefined;
	afterEach(async () => db?.$disconnect());

	it('stores only the HMAC of the IP; neither the IP nor its parts reach the database files or the logs', async () => {
		const dir = tempDir();
		const created = await createTestDb(dir);
		db = created.db;
		let logs = '';
		const logger = pino(
			{ level: 'debug' },
			new Writable({ write: (chunk, _enc, done) => ((logs += chunk.toString()), done()) })
		);
		const salt = loadIpSalt(undefined, dir);
		const deps = { db, clock: new FakeClock('2026-06-01T10:00:00.000Z'), logger, ipSalt: salt };

		expect(await submitLandingForm(deps, form({ phone: '90 123 45 67', comment: 'hi' }), 'ru', IPV4)).toEqual({
			status: 'received'
		});
		expect(await submitLandingForm(deps, form({ telegram: '@aziza_v6' }), 'en', IPV6)).toEqual({ status: 'received' });
		expect((await submitLandingForm(deps, form({ phone: '12' }), 'en', IPV4)).status).toBe('invalid');
		expect(await submitLandingForm(deps, form({ phone: '+998901111111', website: 'http://spam' }), 'en', IPV4)).toEqual(
			{ status: 'received' }
		);
		for (let i = 1; i < RATE_LIMIT.max; i++)
			await submitLandingForm(deps, form({ phone: `+99890222000${i}` }), 'en', IPV4);
		expect((await submitLandingForm(deps, form({ phone: '+998903330000' }), 'en', IPV4)).status).toBe('rate_limited');

		const leads = await db.lead.findMany({ orderBy: { id: 'asc' } });
		expect(leads[0]).toMatchObject({ phone: '+998901234567', ipHash: hashClientIp(IPV4, salt), locale: 'ru' });
		expect(leads[1]?.ipHash).toBe(hashClientIp(IPV6, salt));
		expect(leads.every((l) => /^[0-9a-f]{32}$/.test(l.ipHash ?? ''))).toBe(true);
		expect(leads.some((l) => l.phone === '+998901111111')).toBe(false); // the honeypot stored nothing
		expect(hashClientIp(`::ffff:${IPV4}`, salt)).toBe(hashClientIp(IPV4, salt));

		await db.$disconnect();
		db = undefined;
		const files = readdirSync(dir).filter((f) => f.startsWith('app.db'));
		expect(files.length).toBeGreaterThan(0);
		for (const file of files) {
			const bytes = readFileSync(path.join(dir, file));
			for (const needle of [IPV4, IPV6, '203.0.113', '8a2e:370'])
				expect(bytes.includes(Buffer.from(needle)), `${needle} in ${file}`).toBe(false);
		}
		expect(logs).toContain('landing submission stored');
		for (const needle of [IPV4, IPV6, '203.0.113']) expect(logs.includes(needle), `${needle} in logs`).toBe(false);
	});

	it('the development salt is made once, kept with mode 600 and reused', () => {
		const dir = tempDir();
		const first = loadIpSalt(undefined, dir);
		expect(loadIpSalt(undefined, dir)).toBe(first);
		expect(statSync(path.join(dir, DEV_SALT_FILE)).mode & 0o777).toBe(0o600);
		expect(first.length).toBeGreaterThanOrEqual(32);
		expect(loadIpSalt('configured-salt-0123456789', dir)).toBe('configured-salt-0123456789');
		expect(hashClientIp(IPV4, 'configured-salt-0123456789')).not.toBe(hashClientIp(IPV4, first));
	});
});
