import { availableParallelism, loadavg } from 'node:os';
import { openDatabase, type Db } from '../src/lib/server/db/client.ts';
import { endMaintenance, startMaintenance } from '../src/lib/server/settings/maintenance.ts';
import { systemClock } from '../src/lib/server/time/clock.ts';
import { startBuiltWeb } from './_built-web.ts';
import { startFleet, type Fleet } from './_fleet.ts';
import { openKioskStatus, timeStatusReads } from './_kiosk-reads.ts';
import { startWorkers } from './_workers.ts';

/**
 * The fleet on PostgreSQL + an S3 bucket (docs/scale-out.md), issue #16's performance targets:
 *  1. packs per minute, the same queued jobs finished by 1 worker and then by 3 (real worker
 *     processes, the fake Gemini answering every call after a fixed 2 s): target ≥ 2.5×;
 *  2. the claim's time (claimMs of the workers' "job claimed" lines) under 3 workers: target
 *     p95 < 50 ms, beside the same under 1 worker. A worker's first claim is printed apart: it is
 *     the process's first run of the claim's queries (Prisma's first lease upsert alone took 168 ms
 *     against 26 ms for the second) while its start-up tasks share its event loop — once per
 *     launch whatever the number of workers, so not what the target is about;
 *  3. the kiosk status read (GET /api/kiosk/sessions/<token>) through two built web servers, one on
 *     SQLite and one on PostgreSQL, rounds interleaved so both see the same machine: target p95 on
 *     PostgreSQL ≤ 1.5× SQLite.
 * Each run seeds its jobs with the queue paused (settings.maintenance), lets them go once every
 * worker's job loop runs, and times from then to the last job's end (its jobs row's updated_at).
 *   node --import tsx bench/scale-out.ts     (needs `npx vite build` first; SCALE_OUT_JOBS=n)
 */
const GEMINI_LATENCY_MS = 2000;
/** One slot per worker: the workers, not the slots inside one, are what is scaled here. */
const WORKER_SLOTS = 1;
const JOBS = Number(process.env.SCALE_OUT_JOBS ?? 9);
const JOBS_TIMEOUT_MS = 20 * 60_000;
const READ_ROUNDS = 10;
const READS_PER_ROUND = 60;
const READ_CONCURRENCY = 4;
const TARGET_RATIO = 2.5;
const TARGET_CLAIM_P95_MS = 50;
const TARGET_READ_RATIO = 1.5;

const percentile = (xs: number[], p: number) =>
	[...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * p) - 1)]!;
const describe = (xs: number[]) =>
	xs.length === 0
		? 'no samples'
		: `p50 ${percentile(xs, 0.5).toFixed(1)} ms, p95 ${percentile(xs, 0.95).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms (${xs.length})`;
const verdict = (ok: boolean) => (ok ? '✓' : '✗ misses the target');

interface FleetRun {
	workers: number;
	elapsedMs: number;
	done: number;
	failed: string[];
	claims: { first: number[]; later: number[] };
	geminiCalls: number;
	/** CPU seconds from the release to the last job: the workers', and this process's (fake Gemini drawing, emulator). */
	cpu: { workers: number; bench: number };
}

async function timeFleet(fleet: Fleet, workerCount: number): Promise<FleetRun> {
	const { url, db } = await fleet.database();
	await startMaintenance(db, systemClock, 'admin', 'bench: jobs are let go once every worker runs');
	const jobIds = await fleet.seedJobs(db, JOBS);
	const callsBefore = fleet.gemini.calls.length;
	const workers = startWorkers(workerCount, { ...fleet.workerEnv, DATABASE_URL: url });
	try {
		await workers.started();
		const released = Date.now();
		const cpuBefore = { workers: workers.cpuSeconds(), bench: process.cpuUsage() };
		await endMaintenance(db);
		const jobs = await waitForJobs(db, jobIds);
		const benchCpu = process.cpuUsage(cpuBefore.bench);
		const cpu = { workers: workers.cpuSeconds() - cpuBefore.workers, bench: (benchCpu.user + benchCpu.system) / 1e6 };
		const finishedAt = Math.max(...jobs.map((job) => Date.parse(job.updatedAt)));
		const failed = jobs
			.filter((job) => job.status !== 'done')
			.map((job) => `job ${job.jobId} ${job.status}: ${job.error ?? ''}`);
		return {
			workers: workerCount,
			elapsedMs: finishedAt - released,
			done: jobs.length - failed.length,
			failed,
			claims: workers.claimTimes(),
			geminiCalls: fleet.gemini.calls.length - callsBefore,
			cpu
		};
	} finally {
		await workers.stop();
	}
}

async function waitForJobs(db: Db, jobIds: number[]) {
	const deadline = Date.now() + JOBS_TIMEOUT_MS;
	for (;;) {
		const jobs = await db.job.findMany({
			where: { jobId: { in: jobIds } },
			select: { jobId: true, status: true, error: true, updatedAt: true }
		});
		if (jobs.every((job) => job.status === 'done' || job.status === 'failed')) return jobs;
		if (Date.now() > deadline)
			throw new Error(
				`jobs still open after ${JOBS_TIMEOUT_MS} ms: ${jobs
					.filter((j) => j.status !== 'done')
					.map((j) => `${j.jobId} ${j.status}`)
					.join(', ')}`
			);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

/** Status reads on SQLite and on PostgreSQL, round by round; returns [sqlite, postgres] samples. */
async function compareStatusReads(fleet: Fleet): Promise<[number[], number[]]> {
	const { url, db: pgDb } = await fleet.database();
	const sqliteWeb = startBuiltWeb('scale-out-sqlite', 4690);
	// An empty DB_PATH is unset: the web server then runs on DATABASE_URL alone.
	const pgWeb = startBuiltWeb('scale-out-pg', 4890, { DB_PATH: '', DATABASE_URL: url });
	try {
		await Promise.all([sqliteWeb.ready(), pgWeb.ready()]);
		const sqliteDb = openDatabase(sqliteWeb.dbPath);
		const statuses = [
			await openKioskStatus(sqliteWeb.base, sqliteDb),
			await openKioskStatus(pgWeb.base, pgDb)
		] as const;
		for (const status of statuses) await timeStatusReads(status, 100, READ_CONCURRENCY); // warm-up
		const samples: [number[], number[]] = [[], []];
		for (let round = 0; round < READ_ROUNDS; round++) {
			samples[0].push(...(await timeStatusReads(statuses[0], READS_PER_ROUND, READ_CONCURRENCY)));
			samples[1].push(...(await timeStatusReads(statuses[1], READS_PER_ROUND, READ_CONCURRENCY)));
		}
		await sqliteDb.$disconnect();
		return samples;
	} finally {
		sqliteWeb.stop();
		pgWeb.stop();
	}
}

function printFleetRun(run: FleetRun): number {
	const perMinute = run.done / (run.elapsedMs / 60_000);
	console.log(
		`${run.workers} worker${run.workers > 1 ? 's' : ' '} × ${WORKER_SLOTS} slot: ${run.done}/${JOBS} packs done in ${(run.elapsedMs / 1000).toFixed(1)} s → ${perMinute.toFixed(2)} packs/min (${(run.geminiCalls / JOBS).toFixed(1)} Gemini calls per pack; CPU per pack: workers ${(run.cpu.workers / JOBS).toFixed(1)} s, fake Gemini + emulator ${(run.cpu.bench / JOBS).toFixed(1)} s)`
	);
	for (const failure of run.failed) console.log(`  ✗ ${failure}`);
	return perMinute;
}

const fleet = await startFleet({ geminiLatencyMs: GEMINI_LATENCY_MS, workerSlots: WORKER_SLOTS });
try {
	console.log(
		`${JOBS} queued jobs per run; fake Gemini ${GEMINI_LATENCY_MS} ms per generate call; WORKER_SLOTS=${WORKER_SLOTS}; PostgreSQL + S3 bucket (s3rver)`
	);
	const one = await timeFleet(fleet, 1);
	const oneRate = printFleetRun(one);
	const three = await timeFleet(fleet, 3);
	const threeRate = printFleetRun(three);
	const ratio = threeRate / oneRate;
	console.log(
		`3 workers / 1 worker: ${ratio.toFixed(2)}× the packs per minute (target ≥ ${TARGET_RATIO}×) ${verdict(ratio >= TARGET_RATIO && one.failed.length + three.failed.length === 0)}`
	);
	const all = (run: FleetRun) => [...run.claims.first, ...run.claims.later];
	console.log(`claim (claimNextJob) under 1 worker, all:     ${describe(all(one))}`);
	console.log(`claim (claimNextJob) under 3 workers, all:    ${describe(all(three))}`);
	console.log(
		`  each worker's first claim (the process's first run of the claim's queries, beside its start-up tasks): ${three.claims.first.map((ms) => `${ms.toFixed(1)} ms`).join(', ')}`
	);
	console.log(
		`  later claims, 3 workers: ${describe(three.claims.later)} (target p95 < ${TARGET_CLAIM_P95_MS} ms) ${verdict(three.claims.later.length > 0 && percentile(three.claims.later, 0.95) < TARGET_CLAIM_P95_MS)}`
	);
	console.log(
		`machine load after the fleet runs: ${loadavg()
			.map((l) => l.toFixed(1))
			.join(' ')} on ${availableParallelism()} cores`
	);

	const [sqlite, postgres] = await compareStatusReads(fleet);
	const readRatio = percentile(postgres, 0.95) / percentile(sqlite, 0.95);
	console.log(
		`kiosk status read on SQLite (${READ_ROUNDS} rounds × ${READS_PER_ROUND}, ${READ_CONCURRENCY} at a time):     ${describe(sqlite)}`
	);
	console.log(
		`kiosk status read on PostgreSQL (${READ_ROUNDS} rounds × ${READS_PER_ROUND}, ${READ_CONCURRENCY} at a time): ${describe(postgres)}`
	);
	console.log(
		`PostgreSQL / SQLite (p95): ${readRatio.toFixed(2)}× (target ≤ ${TARGET_READ_RATIO}×) ${verdict(readRatio <= TARGET_READ_RATIO)}`
	);
	console.log(
		`machine load while measuring: ${loadavg()
			.map((l) => l.toFixed(1))
			.join(' ')} on ${availableParallelism()} cores`
	);
} finally {
	await fleet.close();
}
