import { existsSync, writeFileSync } from 'node:fs';
import { openDatabase } from '../../src/lib/server/db/client.ts';
import {
	claimNextJob,
	renewLease,
	requeueAbandonedJobs,
	type ClaimedJob
} from '../../src/lib/server/jobs/job-claims.repository.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';

/**
 * One "worker" of the cross-process claim test: opens the shared SQLite file with the product's
 * client and calls the product's claim (the one the job loop uses) until the queue is empty.
 * Usage: node --import tsx tests/helpers/claim-loop.ts <db> <go-file> <options JSON>
 * Options: workerId, now (ISO, a fixed fake "now" — time is injected), leaseMs,
 *   sweep (run the lease-expiry requeue first, as the loop does at every pass),
 *   holdAfter (stop after that many claims and idle, like a wedged worker, until killed),
 *   heartbeatAt (ISO: once the queue is empty, renew every lease held, like a live worker does),
 *   peers (worker ids racing together: after its first claim a process waits until every peer has
 *     made one, so each of them provably claimed in the race whatever the OS scheduler does).
 * Prints JSON lines: {ready}, {requeued:[ids]}, {claimed, attempts}, {holding}, {renewed}, {done},
 * or {error, busy} and exit code 1. It waits for <go-file> after {ready}, so all processes start
 * racing at the same moment instead of the first one started draining the queue alone.
 */
interface Options {
	workerId: string;
	now: string;
	leaseMs: number;
	sweep?: boolean;
	holdAfter?: number;
	heartbeatAt?: string;
	peers?: string[];
}

const [dbPath, goFile, optionsJson] = process.argv.slice(2);
const options = JSON.parse(optionsJson!) as Options;
const db = openDatabase(dbPath!);
const print = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

async function waitForGo(): Promise<void> {
	await db.job.count(); // connection opened and warm before the race starts
	print({ ready: options.workerId });
	while (!existsSync(goFile!)) await new Promise((resolve) => setTimeout(resolve, 2));
}

/**
 * The first-claim barrier (option peers): marks this process's first claim beside the go file and
 * waits for every peer's mark. A process the scheduler starves still claims once before the others
 * drain the queue, so the test need not assume fair scheduling to know that all of them raced.
 */
async function waitForPeersFirstClaim(): Promise<void> {
	if (!options.peers) return;
	const mark = (id: string) => `${goFile}.first-${id}`;
	writeFileSync(mark(options.workerId), '');
	while (!options.peers.every((id) => existsSync(mark(id)))) await new Promise((resolve) => setTimeout(resolve, 2));
}

async function claimUntilEmpty(clock: FakeClock): Promise<ClaimedJob[]> {
	const claimed: ClaimedJob[] = [];
	for (;;) {
		if (options.holdAfter !== undefined && claimed.length >= options.holdAfter) {
			print({ holding: claimed.length });
			await new Promise(() => setInterval(() => {}, 60_000)); // never resolves: SIGKILL ends it
		}
		const job = await claimNextJob(db, clock, options.workerId, options.leaseMs);
		if (!job) return claimed;
		claimed.push(job);
		print({ claimed: job.jobId, attempts: job.attempts });
		if (claimed.length === 1) await waitForPeersFirstClaim();
	}
}

async function renewAll(claims: ClaimedJob[], at: string): Promise<number> {
	const clock = new FakeClock(at);
	let renewed = 0;
	for (const claim of claims)
		if (await renewLease(db, clock, { ...claim, workerId: options.workerId }, options.leaseMs)) renewed++;
	return renewed;
}

try {
	await waitForGo();
	const clock = new FakeClock(options.now);
	if (options.sweep) print({ requeued: (await requeueAbandonedJobs(db, clock, { maxAttempts: 3 })).requeued });
	const claimed = await claimUntilEmpty(clock);
	if (options.heartbeatAt) print({ renewed: await renewAll(claimed, options.heartbeatAt) });
	print({ done: claimed.length });
	await db.$disconnect();
} catch (error) {
	print({ error: String(error), busy: /SQLITE_BUSY|database is locked/i.test(String(error)) });
	await db.$disconnect();
	process.exit(1);
}
