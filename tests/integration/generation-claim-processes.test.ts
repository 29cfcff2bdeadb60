import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/lib/server/db/client.ts';
import { SECOND } from '../../src/lib/server/time/clock.ts';
import { type Finished, type NodeProcess, startTs, waitForOutput } from '../helpers/node-process.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { createTestDb } from '../helpers/test-db.ts';

/**
 * "Two slots never take the same job" across separate OS processes, each with its
 * own SQLite connection to one real file — the race is decided by SQLite's write lock, not by one
 * event loop. The real worker holds an instance lock (one worker per DATA_DIR), so several full
 * workers cannot be started on one database; instead each process here runs
 * tests/helpers/claim-loop.ts, which calls the product's claim (claimNextJob, the one the job
 * loop uses), its lease-expiry requeue (requeueAbandonedJobs) and its heartbeat (renewLease).
 * Time is a FakeClock per process, set from the test: no sleeping for lease rules.
 */
const JOBS = 200;
/**
 * The three-way race drains more jobs: with 200 a process scheduled late on a loaded CI box found
 * the queue already empty; draining 1000 takes longer than such a delay, so each one races.
 */
const RACE_JOBS = 1000;
const LEASE_MS = 30 * SECOND;
const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms).toISOString();

interface Line {
	ready?: string;
	claimed?: number;
	attempts?: number;
	holding?: number;
	requeued?: number[];
	renewed?: number;
	done?: number;
	error?: string;
	busy?: boolean;
}
type Claimer = NodeProcess;

async function seedQueuedJobs(db: Db, count: number): Promise<void> {
	// As the guest flow leaves them: queued, oldest first; the claim needs no other rows.
	const rows = Array.from({ length: count }, (_, i) => {
		const created = new Date(T0.getTime() - (count - i) * SECOND).toISOString();
		return {
			telegramUserId: BigInt(1000 + i),
			sessionToken: `s${i}`,
			photoPath: `/nowhere/${i}.jpg`,
			templateId: 'tuxedo',
			status: 'queued',
			createdAt: created,
			updatedAt: created
		};
	});
	await db.job.createMany({ data: rows });
}

function startClaimer(dbPath: string, goFile: string, options: Record<string, unknown>): Claimer {
	return startTs('tests/helpers/claim-loop.ts', {
		args: [dbPath, goFile, JSON.stringify({ leaseMs: LEASE_MS, ...options })]
	});
}

/** Starts the claimers together: each opens its connection, says ready, then all race at once. */
async function raceClaimers(
	dir: string,
	round: string,
	dbPath: string,
	optionsList: Record<string, unknown>[]
): Promise<Claimer[]> {
	const goFile = path.join(dir, `go-${round}`);
	const claimers = optionsList.map((options) => startClaimer(dbPath, goFile, options));
	await Promise.all(claimers.map((c) => waitForOutput(c, (text) => text.includes('"ready"'), 60_000)));
	writeFileSync(goFile, 'go');
	return claimers;
}

function linesOf(finished: Finished): Line[] {
	return finished.stdout
		.split('\n')
		.filter((l) => l.startsWith('{'))
		.map((l) => JSON.parse(l) as Line);
}

function claimedIds(lines: Line[]): number[] {
	return lines.filter((l) => l.claimed !== undefined).map((l) => l.claimed!);
}

/** Every process ended cleanly, with no error (SQLITE_BUSY or other) surfaced to it. */
function expectCleanExit(finished: Finished[]): void {
	for (const f of finished) {
		expect(
			linesOf(f).filter((l) => l.error),
			f.stdout + f.stderr
		).toEqual([]);
		expect(f.code, f.stderr).toBe(0);
	}
}

function expectEachOnce(ids: number[], expected: number[]): void {
	expect(ids.length, 'a job was claimed twice').toBe(new Set(ids).size);
	expect([...ids].sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));
}

async function allJobIds(db: Db): Promise<number[]> {
	return (await db.job.findMany({ select: { jobId: true } })).map((j) => j.jobId);
}

describe('claiming generation jobs from separate OS processes (one SQLite file)', () => {
	const tempDir = useTempDir('gen-claim-procs-');

	it('three processes draining 1000 queued jobs claim each exactly once, attempts 1, no SQLITE_BUSY', async () => {
		const dir = tempDir();
		const { db, dbPath } = await createTestDb(dir);
		try {
			await seedQueuedJobs(db, RACE_JOBS);
			const workers = ['w0', 'w1', 'w2'];
			const claimers = await raceClaimers(
				dir,
				'drain',
				dbPath,
				workers.map((workerId) => ({ workerId, now: at(0), peers: workers }))
			);
			const finished = await Promise.all(claimers.map((c) => c.finished));
			expectCleanExit(finished);
			const perWorker = finished.map((f) => claimedIds(linesOf(f)));
			expectEachOnce(perWorker.flat(), await allJobIds(db));
			// Each process got a share: the race really was between processes, not one draining alone.
			// The claim loop's first-claim barrier (peers) makes this hold without assuming fair scheduling.
			for (const ids of perWorker) expect(ids.length).toBeGreaterThan(0);
			expect(finished.flatMap((f) => linesOf(f)).filter((l) => l.claimed !== undefined && l.attempts !== 1)).toEqual(
				[]
			);
			expect(await db.job.count({ where: { status: 'processing', attempts: 1 } })).toBe(RACE_JOBS);
			const leases = await db.jobLease.findMany();
			expect(leases).toHaveLength(RACE_JOBS);
			for (const [i, ids] of perWorker.entries()) {
				const held = leases.filter((l) => l.workerId === workers[i]).map((l) => l.jobId);
				expectEachOnce(held, ids); // the lease row names the process that claimed the job
			}
		} finally {
			await db.$disconnect();
		}
	}, 120_000);

	it('a process killed (SIGKILL) holding claims: its expired leases are requeued once and the others claim each of those jobs exactly once', async () => {
		const dir = tempDir();
		const { db, dbPath } = await createTestDb(dir);
		const claimers: Claimer[] = [];
		try {
			await seedQueuedJobs(db, JOBS);
			// Round 1 at T0: w2 wedges after 5 claims and is killed while w0 and w1 keep claiming;
			// the live ones heartbeat their leases at T0+20s (the dead one cannot). w2 takes its 5
			// first: racing the others, a loaded machine could let them drain the queue before it
			// got any (the three-way race itself is the test above).
			const [victim] = await raceClaimers(dir, 'victim', dbPath, [{ workerId: 'w2', now: at(0), holdAfter: 5 }]);
			await waitForOutput(victim!, (text) => text.includes('"holding"'));
			const live = ['w0', 'w1'].map((workerId) => ({ workerId, now: at(0), heartbeatAt: at(20 * SECOND) }));
			claimers.push(...(await raceClaimers(dir, 'one', dbPath, live)), victim!);
			victim!.kill('SIGKILL');
			const roundOne = await Promise.all(claimers.map((c) => c.finished));
			expect(roundOne[2]!.signal).toBe('SIGKILL');
			expectCleanExit(roundOne.slice(0, 2));
			for (const f of roundOne.slice(0, 2))
				expect(linesOf(f).find((l) => l.renewed !== undefined)?.renewed).toBe(claimedIds(linesOf(f)).length);
			const dead = claimedIds(linesOf(roundOne[2]!));
			expect(dead).toHaveLength(5);
			expectEachOnce(
				roundOne.flatMap((f) => claimedIds(linesOf(f))),
				await allJobIds(db)
			);
			expectEachOnce(
				(await db.jobLease.findMany({ where: { workerId: 'w2' } })).map((l) => l.jobId),
				dead
			);

			// Round 2 at T0+31s: w2's leases (T0+30s) expired, w0/w1's (T0+50s) did not. The live
			// workers' next pass sweeps (both at once: each dead job is requeued by exactly one) and claims.
			const sweepers = ['w0', 'w1'].map((workerId) => ({ workerId, now: at(31 * SECOND), sweep: true }));
			const roundTwo = await Promise.all((await raceClaimers(dir, 'two', dbPath, sweepers)).map((c) => c.finished));
			expectCleanExit(roundTwo);
			expectEachOnce(
				roundTwo.flatMap((f) => linesOf(f).flatMap((l) => l.requeued ?? [])),
				dead
			);
			expectEachOnce(
				roundTwo.flatMap((f) => claimedIds(linesOf(f))),
				dead
			);
			expect(roundTwo.flatMap((f) => linesOf(f)).filter((l) => l.claimed !== undefined && l.attempts !== 2)).toEqual(
				[]
			);

			expect(await db.job.count({ where: { status: 'processing' } })).toBe(JOBS);
			expect(await db.job.count({ where: { attempts: 2 } })).toBe(dead.length);
			expect(await db.job.count({ where: { jobId: { in: dead }, error: { contains: 'lease expired' } } })).toBe(
				dead.length
			);
			expect(await db.jobLease.count()).toBe(JOBS);
			expect(await db.jobLease.count({ where: { workerId: 'w2' } })).toBe(0);
		} finally {
			for (const c of claimers) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
			await db.$disconnect();
		}
	}, 120_000);
});
