import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../../../src/lib/server/api-tokens/api-tokens.repository.ts';
import { rememberBotUsername } from '../../../src/lib/server/guests/bot-identity.ts';
import { createKiosk } from '../../../src/lib/server/kiosk/kiosk-keys.ts';
import { systemClock } from '../../../src/lib/server/time/clock.ts';
import { requestWeb, startBuiltWeb, type BuiltWeb } from '../../helpers/built-web.ts';
import { usePgTestDb } from '../../helpers/pg-test-db.ts';
import { useTempDir } from '../../helpers/temp-dir.ts';
import { insertOperator } from '../console-fixtures.ts';

/**
 * The point of rate_limit_buckets: two web processes (as behind a load balancer), each with its own
 * data folder and one PostgreSQL database, count one allowance. With buckets in each process's
 * memory the requests below, alternating between them, would all pass (each process sees half).
 */
describe('rate limits shared by two web processes on PostgreSQL', () => {
	const database = usePgTestDb();
	const tempDir = useTempDir('pg-shared-rate-limits-');
	const webs: BuiltWeb[] = [];

	beforeAll(async () => {
		const { url } = database();
		const env = { DB_PATH: '', DATABASE_URL: url };
		const dirs = [tempDir(), tempDir()];
		webs.push(...(await Promise.all(dirs.map((dir) => startBuiltWeb(dir, env)))));
	}, 120_000);
	afterAll(async () => {
		await Promise.all(webs.map((web) => web.stop()));
	});

	/** Each request goes to the other process than the one before. */
	async function alternate(count: number, send: (web: BuiltWeb) => Promise<Response>): Promise<Response[]> {
		const answers: Response[] = [];
		for (let i = 0; i < count; i++) answers.push(await send(webs[i % 2]!));
		return answers;
	}

	it('a kiosk gets its 10 starts in total, then 429 with Retry-After from either process', async () => {
		const { db } = database();
		await rememberBotUsername(db, systemClock, 'sticker_test_bot');
		const start = (web: BuiltWeb, key: string) =>
			requestWeb(web, '/api/kiosk/sessions', { method: 'POST', cookie: `kiosk_key=${key}` });
		// A first start in each process pays for its warm-up (connections, the upload checker), so the
		// 12 below take well under the 6 s in which one token comes back.
		const warmUp = await createKiosk(db, systemClock, 'warm-up');
		for (const web of webs) expect((await start(web, warmUp.key)).status).toBe(201);
		const { key } = await createKiosk(db, systemClock, 'hall-a');
		const answers = await alternate(12, (web) => start(web, key));
		expect(answers.map((answer) => answer.status)).toEqual([...Array<number>(10).fill(201), 429, 429]);
		for (const refused of answers.slice(10)) {
			expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
			expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(6);
			expect(await refused.json()).toEqual({
				error: 'rate_limited',
				message: 'Too many requests from this kiosk. Wait a few seconds.'
			});
		}
		// The warm-up kiosk's allowance is its own.
		expect((await start(webs[0]!, warmUp.key)).status).toBe(201);
	});

	it('an API token of 3 a minute gets 3 requests in total across both processes', async () => {
		const { db } = database();
		const owner = await insertOperator(db, systemClock, 'olga', 'owner');
		const token = await createApiToken(db, systemClock, owner.id, {
			name: 'crm',
			scopes: ['stats:read'],
			expiresInDays: 30,
			ratePerMinute: 3
		});
		const answers = await alternate(4, (web) =>
			fetch(`${web.base}/api/v1/events`, { headers: { authorization: `Bearer ${token.secret}` } })
		);
		expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
		expect(Number(answers[3]!.headers.get('retry-after'))).toBeGreaterThan(15);
		expect(Number(answers[3]!.headers.get('retry-after'))).toBeLessThanOrEqual(20);
	});
});
