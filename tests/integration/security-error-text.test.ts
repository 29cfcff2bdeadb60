import { describe, expect, it, vi } from 'vitest';
import type { Db } from '../../src/lib/server/db/client.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { callTrpc, signIn, useBuiltWeb, type BuiltWeb } from '../helpers/built-web.ts';
import { openSse } from '../helpers/sse-reader.ts';
import { insertOperator, TEST_PASSWORD } from './console-fixtures.ts';

/**
 * Against the built web server: an unexpected failure (here Prisma, after a
 * table vanished) reaches the operator as a sentence with a reference; the same reference is in
 * the web process's error line next to the real message. Deliberate refusals and input problems
 * keep their own words.
 */
const INTERNAL_TEXT = /audit_log|prisma|table|does not exist|sqlite|invocation/i;

describe('finding 10: error text for operators', () => {
	const builtWeb = useBuiltWeb('error-text-');

	async function start(): Promise<{ web: BuiltWeb; db: Db; cookie: string; operatorId: number }> {
		const { web, db } = await builtWeb.start();
		const { id } = await insertOperator(db, systemClock, 'olga', 'owner');
		return { web, db, cookie: await signIn(web, 'olga', TEST_PASSWORD), operatorId: id };
	}

	/** The web process writes its log lines asynchronously: the line may follow the answer by a moment. */
	async function expectReferenceLogged(web: BuiltWeb, reference: string): Promise<void> {
		const line = await vi.waitFor(
			() => {
				const found = web
					.output()
					.split('\n')
					.find((l) => l.includes(reference));
				if (!found) throw new Error(`no log line with ${reference} yet`);
				return found;
			},
			{ timeout: 5_000 }
		);
		expect(JSON.parse(line)).toMatchObject({
			level: 50,
			requestId: reference,
			err: { message: expect.stringMatching(/audit_log/) }
		});
	}

	it('finding 10: an unexpected error reaches the operator as a sentence and a reference that is in the log', async () => {
		const { web, db, cookie } = await start();
		await db.$executeRawUnsafe('DROP TABLE audit_log');

		const { status, body } = await callTrpc(web, cookie, 'query', 'audit.list', {});
		expect(status).toBe(500);
		const error = body.error!;
		expect(error.message).toMatch(/^Something went wrong on our side\. Please try again\. \(reference [0-9a-f]{12}\)$/);
		expect(JSON.stringify(body)).not.toMatch(INTERNAL_TEXT);
		const reference = error.data.requestId!;
		expect(error.message).toContain(reference);
		await expectReferenceLogged(web, reference);

		// The same inside a live view: the stream's error event carries the sentence, not Prisma's text.
		const stream = await openSse(`${web.base}/api/trpc/audit.watch?input=${encodeURIComponent('{}')}`, { cookie });
		builtWeb.later(() => stream.close());
		const failed = await stream.waitFor((e) => e.event === 'serialized-error');
		expect(failed.data).not.toMatch(INTERNAL_TEXT);
		const streamed = JSON.parse(failed.data) as { message: string; data: { requestId: string } };
		expect(streamed.message).toContain(`(reference ${streamed.data.requestId})`);
		await expectReferenceLogged(web, streamed.data.requestId);
	}, 60_000);

	it('finding 10: deliberate refusals and input problems keep their messages', async () => {
		const { web, cookie, operatorId } = await start();
		const missing = await callTrpc(web, cookie, 'query', 'jobs.detail', { jobId: 999 });
		expect(missing.status).toBe(404);
		expect(missing.body.error?.message).toBe('Job 999 does not exist (the guest may have been reset).');

		const self = await callTrpc(web, cookie, 'mutation', 'operators.remove', { operatorId });
		expect(self.status).toBe(400);
		expect(self.body.error?.message).toBe('You cannot remove yourself. Ask another owner.');

		const invalid = await callTrpc(web, cookie, 'query', 'audit.list', { limit: 0 });
		expect(invalid.status).toBe(400);
		expect(invalid.body.error?.data.zodError?.fieldErrors.limit).toEqual([
			expect.stringMatching(/>=\s*1|at least 1|too small/i)
		]);
		for (const answer of [missing, self, invalid]) expect(answer.body.error?.data.requestId).toBeUndefined();
	}, 60_000);
});
