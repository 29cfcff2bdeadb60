import { describe, expect, it } from 'vitest';
import { ACCOUNT_CLIENT_POLICY, throttleDelayMs } from '../../src/lib/server/auth/login-throttle.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { CLIENT_ADDRESS_FROM_HEADER, cookiesFrom, postForm, useBuiltWeb, type BuiltWeb } from '../helpers/built-web.ts';
import { insertOperator, TEST_PASSWORD } from './console-fixtures.ts';

/** How many wrong passwords one (account, address) pair gets checked within `ms`, one after the other. */
function checksAllowedWithin(ms: number): number {
	const waitAfter = (checks: number) => throttleDelayMs(checks, ACCOUNT_CLIENT_POLICY);
	let checks = ACCOUNT_CLIENT_POLICY.freeFailures + 1;
	for (let waited = waitAfter(checks); waited <= ms; waited += waitAfter(checks)) checks++;
	return checks;
}

/**
 * Console sign-in throttling against the built web server: parallel attempts cannot slip past the
 * throttle, and argon2 work is capped for the whole process.
 */
describe('console sign-in over HTTP', () => {
	const builtWeb = useBuiltWeb('web-sign-in-');
	async function startWithOlga(): Promise<BuiltWeb> {
		const { web, db } = await builtWeb.start(CLIENT_ADDRESS_FROM_HEADER);
		await insertOperator(db, systemClock, 'olga', 'owner');
		return web;
	}
	const signIn = (web: BuiltWeb, password: string, ip: string) =>
		postForm(web, '/console/login', { username: 'olga', password }, { ip });

	it(
		'finding 1: 100 parallel wrong passwords reach the password check a handful of times',
		{ timeout: 120_000 },
		async () => {
			const web = await startWithOlga();
			const startedAt = Date.now();
			const answers = await Promise.all(
				Array.from({ length: 100 }, (_, i) => signIn(web, `wrong-guess-${i}`, '203.0.113.9'))
			);
			const burstMs = Date.now() - startedAt;
			const checked = answers.filter((answer) => answer.status === 400);
			const refused = answers.filter((answer) => answer.status === 429);
			expect(checked.length + refused.length).toBe(100);
			// Three free failures for the (account, address) pair, and the fourth that starts the delay —
			// plus one more for each of the pair's waits (2 s, 4 s, …) that ran out while the burst was
			// still being answered on a slow machine: those the throttle lets through one after the other.
			expect(checked.length).toBeGreaterThanOrEqual(1);
			expect(checked.length).toBeLessThanOrEqual(checksAllowedWithin(burstMs));
			for (const answer of refused) expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

			// The real person at another address still signs in.
			const real = await signIn(web, TEST_PASSWORD, '198.51.100.20');
			expect(real.status).toBe(303);
			expect(cookiesFrom(real)).toMatch(/console_session=[a-z2-7]{32}/);
		}
	);

	it(
		'finding 1: IPv6 clients are counted per /64, so hopping addresses inside it does not reset the throttle',
		{ timeout: 60_000 },
		async () => {
			const web = await startWithOlga();
			const statuses: number[] = [];
			for (let host = 1; host <= 8; host++)
				statuses.push((await signIn(web, `wrong-guess-${host}`, `2001:db8:5:7::${host.toString(16)}`)).status);
			expect(statuses.slice(0, 4)).toEqual([400, 400, 400, 400]);
			expect(statuses.slice(4)).toEqual([429, 429, 429, 429]);

			// Another /64 is another client.
			expect((await signIn(web, TEST_PASSWORD, '2001:db8:5:8::1')).status).toBe(303);
		}
	);
});
