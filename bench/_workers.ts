import { readFileSync } from 'node:fs';
import { startBuiltWorker, waitForOutput } from '../tests/helpers/node-process.ts';
import { workerDataDir } from './_fleet.ts';

/**
 * Real worker processes (the bundle production runs, build/node/worker.js; bench/run.ts builds it), each with its own
 * data folder, and what their JSON log lines say about their claims.
 */
export interface Workers {
	/** Resolves once every worker logged "worker started" (its job loop is running). */
	started(): Promise<void>;
	/**
	 * `claimMs` of the "job claimed" lines so far, all workers together: each worker's first claim
	 * apart (the process's first run of the claim's queries, beside its start-up tasks) from the later ones.
	 */
	claimTimes(): { first: number[]; later: number[] };
	/** CPU seconds (user + system) the worker processes have used so far, together (Linux /proc). */
	cpuSeconds(): number;
	stop(): Promise<void>;
}

/** /proc/<pid>/stat counts CPU time in clock ticks: 100 a second on Linux (`getconf CLK_TCK`). */
const CLOCK_TICKS_PER_SECOND = 100;

const START_TIMEOUT_MS = 120_000;

export function startWorkers(count: number, env: Record<string, string>): Workers {
	const dirs = Array.from({ length: count }, () => workerDataDir());
	const children = dirs.map(({ dir }) => startBuiltWorker({ env: { ...env, DATA_DIR: dir } }));
	return {
		async started() {
			await Promise.all(
				children.map((child) =>
					waitForOutput(child, (text) => text.includes('"msg":"worker started"'), START_TIMEOUT_MS)
				)
			);
		},
		claimTimes: () => {
			const perWorker = children.map((child) => claimTimesIn(child.output().stdout));
			return {
				first: perWorker.flatMap((times) => times.slice(0, 1)),
				later: perWorker.flatMap((times) => times.slice(1))
			};
		},
		cpuSeconds: () => children.reduce((sum, child) => sum + processCpuSeconds(child.pid!), 0),
		async stop() {
			for (const child of children) child.kill('SIGTERM');
			await Promise.all(children.map((child) => child.finished));
			for (const dir of dirs) dir.remove();
		}
	};
}

function claimTimesIn(stdout: string): number[] {
	const times: number[] = [];
	for (const line of stdout.split('\n')) {
		if (!line.includes('"msg":"job claimed"')) continue;
		const { claimMs } = JSON.parse(line) as { claimMs?: number };
		if (typeof claimMs !== 'number') throw new Error(`a claim line without claimMs: ${line}`);
		times.push(claimMs);
	}
	return times;
}

function processCpuSeconds(pid: number): number {
	// The command name (field 2) may hold spaces; utime and stime are fields 14 and 15.
	const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
	return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}
