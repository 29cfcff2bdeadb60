import { describe, expect, it } from 'vitest';
import { MAX_TRPC_BATCH_CALLS } from '../../src/lib/server/trpc/batch-limit.ts';
import { readMaintenance } from '../../src/lib/server/settings/maintenance.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { requestWeb, signIn, useBuiltWeb } from '../helpers/built-web.ts';
import { insertOperator, TEST_PASSWORD } from './console-fixtures.ts';

/**
 * Against the built web server: one tRPC request batches at most MAX_TRPC_BATCH_CALLS calls. A
 * bigger batch is refused with 400 and a sentence before any of its calls runs (one unsigned
 * 14 KB request used to run 1000 of them).
 */
describe('tRPC batches', () => {
	const { start } = useBuiltWeb('trpc-batch-');
	const batchPath = (procedure: string, calls: number) =>
		`/api/trpc/${Array.from({ length: calls }, () => procedure).join(',')}?batch=1`;
	const inputs = (calls: number, input: unknown) =>
		JSON.stringify(Object.fromEntries(Array.from({ length: calls }, (_, i) => [String(i), input])));

	it('refuses a batch of 1000 calls from anyone, with 400 and the limit in the sentence', async () => {
		const { web } = await start();
		// About 14 KB of URL, as the request that ran 1000 calls: queries by GET, mutations by POST.
		const queries = await requestWeb(web, batchPath('system.health', 1000));
		const mutations = await requestWeb(web, batchPath('console.pause', 1000), {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{}'
		});
		for (const response of [queries, mutations]) {
			expect(response.status).toBe(400);
			const body = (await response.json()) as { error: { message: string; data: { code: string } } };
			expect(body.error.data.code).toBe('BAD_REQUEST');
			expect(body.error.message).toBe(
				`This request batches 1000 calls; at most ${MAX_TRPC_BATCH_CALLS} are allowed in one request. Send them in smaller batches.`
			);
		}
		// Commas sent percent-encoded count the same; a batch at the cap is answered call by call.
		expect(
			(await requestWeb(web, `/api/trpc/${Array.from({ length: 11 }, () => 'system.health').join('%2C')}?batch=1`))
				.status
		).toBe(400);
		const atCap = await requestWeb(web, batchPath('system.health', MAX_TRPC_BATCH_CALLS));
		expect(atCap.status).toBe(200);
		expect(await atCap.json()).toHaveLength(MAX_TRPC_BATCH_CALLS);
	}, 60_000);

	it('a batch of mutations one over the cap runs none of them; one at the cap runs them', async () => {
		const { web, db } = await start();
		await insertOperator(db, systemClock, 'olga', 'operator');
		const cookie = await signIn(web, 'olga', TEST_PASSWORD);
		const pauses = () => db.auditLog.count({ where: { action: 'pause' } });
		const post = (calls: number) =>
			requestWeb(web, batchPath('console.pause', calls), {
				method: 'POST',
				cookie,
				headers: { 'content-type': 'application/json' },
				body: inputs(calls, { reason: 'batch test' })
			});

		const refused = await post(MAX_TRPC_BATCH_CALLS + 1);
		expect(refused.status).toBe(400);
		expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
			/batches 11 calls; at most 10 are allowed/
		);
		expect(await readMaintenance(db)).toBeNull();
		expect(await pauses()).toBe(0);

		// At the cap every call runs: the first pauses, the others are told the queue is already paused.
		const allowed = await post(MAX_TRPC_BATCH_CALLS);
		const answers = (await allowed.json()) as { result?: unknown; error?: { message: string } }[];
		expect(answers).toHaveLength(MAX_TRPC_BATCH_CALLS);
		expect(answers.filter((answer) => answer.result)).toHaveLength(1);
		expect(await readMaintenance(db)).not.toBeNull();
		expect(await pauses()).toBe(1);
	}, 60_000);
});
