import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/lib/server/db/client.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { cookiesFrom, useBuiltWeb, type BuiltWeb } from '../helpers/built-web.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { insertOperator, TEST_PASSWORD } from './console-fixtures.ts';

/**
 * Console sign-in throttling against the built web server (RELIABILITY R13): parallel attempts
 * cannot slip past the throttle, and argon2 work is capped for the whole process.
 */
describe('console sign-in over HTTP', () => {
	const startWeb = useBuiltWeb(useTempDir('web-sign-in-'));
	const withOlga = {
		seed: async (db: Db) => {
			await insertOperator(db, systemClock, 'olga', 'owner');
		}
	};
	const signIn = (web: BuiltWeb, password: string, ip: string) => web.postForm('/console/login', { username: 'olga', password }, { ip });

	it('finding 1: 100 parallel wrong passwords reach the password check a handful of times', { timeout: 120_000 }, async () => {
		const web = await startWeb(withOlga);
		const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => signIn(web, `wrong-guess-${i}`, '203.0.113.9')));
		const checked = answers.filter((answer) => answer.status === 400);
		const refused = answers.filter((answer) => answer.status === 429);
		expect(checked.length + refused.length).toBe(100);
		// Three free failures for the (account, address) pair, and the fourth that starts the delay.
		expect(checked.length).toBeGreaterThanOrEqual(1);
		expect(checked.length).toBeLessThanOrEqual(4);
		for (const answer of refused) expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

		// The real person at another address still signs in.
		const real = await signIn(web, TEST_PASSWORD, '198.51.100.20');
		expect(real.status).toBe(303);
		expect(cookiesFrom(real)).toMatch(/console_session=[a-z2-7]{32}/);
	});

	it('finding 1: IPv6 clients are counted per /64, so hopping addresses inside it does not reset the throttle', { timeout: 60_000 }, async () => {
		const web = await startWeb(withOlga);
		const statuses: number[] = [];
		for (let host = 1; host <= 8; host++) statuses.push((await signIn(web, `wrong-guess-${host}`, `2001:db8:5:7::${host.toString(16)}`)).status);
		expect(statuses.slice(0, 4)).toEqual([400, 400, 400, 400]);
		expect(statuses.slice(4)).toEqual([429, 429, 429, 429]);

		// Another /64 is another client.
		expect((await signIn(web, TEST_PASSWORD, '2001:db8:5:8::1')).status).toBe(303);
	});
});
