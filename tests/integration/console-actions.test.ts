import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { createOperatorSession, validateOperatorSession } from '../../src/lib/server/auth/operator-session.ts';
import { readMaintenance } from '../../src/lib/server/settings/maintenance.ts';
import { FakeClock, MINUTE } from '../../src/lib/server/time/clock.ts';
import { useTestDb } from '../helpers/test-db.ts';
import { consoleCaller, insertGuest, insertOperator } from './console-fixtures.ts';

describe('console actions through the tRPC router', () => {
	const freshDb = useTestDb('console-actions-');
	async function setUp() {
		const { db, dir } = await freshDb();
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const owner = await insertOperator(db, clock, 'olga', 'owner');
		const operator = await insertOperator(db, clock, 'oleg', 'operator');
		const viewer = await insertOperator(db, clock, 'vera', 'viewer');
		const [failedJob] = await insertGuest(db, clock, { id: 4440001n, firstName: 'Ivan', jobs: [{ status: 'failed' }] });
		await db.job.update({ where: { jobId: failedJob }, data: { attempts: 3, error: 'deadline passed' } });
		const as = (who: typeof owner | null) => consoleCaller(db, clock, dir, who);
		return { db, clock, owner, operator, viewer, failedJob: failedJob!, as };
	}
	const codeOf = async (promise: Promise<unknown>) => {
		try {
			await promise;
			return 'OK';
		} catch (error) {
			return error instanceof TRPCError ? error.code : String(error);
		}
	};

	it('refuses every action to a viewer and to nobody, and writes nothing', async () => {
		const { db, viewer, failedJob, as } = await setUp();
		const attempts = (caller: ReturnType<typeof as>) => [
			caller.console.pause({ reason: 'x' }),
			caller.console.resume(),
			caller.guests.grantExtraPack({ telegramUserId: '4440001' }),
			caller.guests.reset({ telegramUserId: '4440001' }),
			caller.jobs.retry({ jobId: failedJob }),
			caller.spend.setBalance({ valueUsd: 10 }),
			caller.operators.add({ username: 'newbie', role: 'viewer', password: 'long enough password' }),
			caller.operators.remove({ operatorId: viewer.id })
		];
		for (const attempt of attempts(as(viewer))) expect(await codeOf(attempt)).toBe('FORBIDDEN');
		for (const attempt of attempts(as(null))) expect(await codeOf(attempt)).toBe('UNAUTHORIZED');
		expect(await db.auditLog.count()).toBe(0);
		expect(await readMaintenance(db)).toBeNull();
		// Viewers still read everything.
		expect((await as(viewer).guests.list({ search: 'Ivan' })).rows).toHaveLength(1);
		expect((await as(viewer).console.live()).jobCounts.failed).toBe(1);
	});

	it('retries a failed job: queued, created_at now, attempts 0, error cleared, audit logged', async () => {
		const { db, clock, operator, failedJob, as } = await setUp();
		clock.advance(30 * MINUTE);
		await as(operator).jobs.retry({ jobId: failedJob });
		const job = await db.job.findUniqueOrThrow({ where: { jobId: failedJob } });
		expect(job).toMatchObject({ status: 'queued', attempts: 0, error: null, createdAt: clock.now().toISOString() });
		const audit = await db.auditLog.findFirstOrThrow({ where: { action: 'retry_job' } });
		expect(audit).toMatchObject({ actor: 'oleg', ip: '10.0.0.7', jobId: failedJob, telegramUserId: 4440001n });
		expect(JSON.parse(audit.details!)).toMatchObject({ previousError: 'deadline passed', previousAttempts: 3 });
		// A job that is not failed cannot be retried; the answer says why.
		await expect(as(operator).jobs.retry({ jobId: failedJob })).rejects.toThrow(/is queued, not failed/);
	});

	it('grants an extra pack and sets the balance, both audited; the estimate subtracts later spend', async () => {
		const { db, clock, operator, as } = await setUp();
		expect(await as(operator).guests.grantExtraPack({ telegramUserId: '4440001' })).toEqual({ extraPacksAllowed: 1 });
		expect((await db.user.findUniqueOrThrow({ where: { telegramUserId: 4440001n } })).extraPacksAllowed).toBe(1);

		await as(operator).spend.setBalance({ valueUsd: 100 });
		clock.advance(MINUTE);
		await db.apiUsage.create({
			data: { ts: clock.now().toISOString(), kind: 'image', provider: 'gemini', estCostUsd: 2.5, ok: 1, stage: 'sheet' }
		});
		const summary = await as(operator).spend.summary({ days: 7 });
		expect(summary.balance).toMatchObject({ override: { value: 100 }, spentSinceUsd: 2.5, estimateUsd: 97.5 });
		expect(summary.perStage[0]).toMatchObject({ key: 'sheet', costUsd: 2.5 });
		const actions = (await db.auditLog.findMany({ orderBy: { id: 'asc' } })).map((a) => `${a.action}:${a.actor}`);
		expect(actions).toEqual(['grant_extra_pack:oleg', 'set_balance_override:oleg']);
	});

	it('pauses and resumes with source admin, audited', async () => {
		const { db, operator, as } = await setUp();
		await as(operator).console.pause({ reason: 'venue Wi-Fi down' });
		expect(await readMaintenance(db)).toMatchObject({ source: 'admin', reason: 'venue Wi-Fi down' });
		await expect(as(operator).console.pause({ reason: '' })).rejects.toThrow(/already paused/);
		await as(operator).console.resume();
		expect(await readMaintenance(db)).toBeNull();
		const audit = await db.auditLog.findMany({ orderBy: { id: 'asc' } });
		expect(audit.map((a) => a.action)).toEqual(['pause', 'resume']);
		// The same audit shape as the bot's /pause and /resume (settings/operator-pause.ts), naming the door.
		expect(JSON.parse(audit[0]!.details!)).toEqual({ reason: 'venue Wi-Fi down', via: 'console' });
		expect(JSON.parse(audit[1]!.details!)).toMatchObject({
			was: { source: 'admin', reason: 'venue Wi-Fi down' },
			via: 'console'
		});
	});

	it('lets only the owner manage operators; removal ends the removed operator’s sessions', async () => {
		const { db, clock, owner, operator, viewer, as } = await setUp();
		expect(
			await codeOf(as(operator).operators.add({ username: 'newbie', role: 'viewer', password: 'long enough password' }))
		).toBe('FORBIDDEN');
		const added = await as(owner).operators.add({
			username: 'Newbie',
			role: 'viewer',
			password: 'long enough password'
		});
		expect(added).toMatchObject({ username: 'newbie', role: 'viewer' });
		await expect(
			as(owner).operators.add({ username: 'x', role: 'viewer', password: 'long enough password' })
		).rejects.toThrow(/username needs/);

		const session = await createOperatorSession(db, clock, viewer.id);
		await as(owner).operators.remove({ operatorId: viewer.id });
		expect(await validateOperatorSession(db, clock, session.token)).toBeNull();
		await expect(as(owner).operators.remove({ operatorId: owner.id })).rejects.toThrow(/cannot remove yourself/);
		const log = (await db.auditLog.findMany({ orderBy: { id: 'asc' } })).map((a) => a.action);
		expect(log).toEqual(['add_operator', 'remove_operator']);
	});
});
