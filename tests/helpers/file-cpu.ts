import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';
import { afterAll, expect } from 'vitest';

/**
 * What a test file cost in CPU, for npm test's list of the heaviest files (scripts/test-summary.mjs).
 * On a busy machine wall time says more about the neighbours than about the file; CPU seconds barely
 * move. Each integration file runs in a process of its own (forks, isolated), so that process's
 * user + system time is the file's, and the children it waited for (worker and web processes,
 * ffmpeg under them) are in the kernel's cutime/cstime. Registered first, so it runs after the file's
 * own after-hooks have stopped what it started. Off unless TEST_CPU_REPORT names the file to
 * append to; not for the unit specs, which share one process (threads), nor where /proc is absent.
 */
const report = process.env.TEST_CPU_REPORT;
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

if (report && isMainThread && existsSync('/proc/self/stat')) {
	afterAll(() => {
		const { self, children } = cpuSeconds(readFileSync('/proc/self/stat', 'utf8'));
		const file = path.relative(REPO, expect.getState().testPath ?? '');
		// The process lives for this file alone: its age is the file's wall time, imports included.
		appendFileSync(report, JSON.stringify({ file, self, children, wall: process.uptime() }) + '\n');
	});
}

/** utime, stime, cutime, cstime of proc(5)'s stat line (clock ticks; 100 a second on Linux). */
export function cpuSeconds(stat: string, ticksPerSecond = 100): { self: number; children: number } {
	// The command name may hold spaces and parentheses; the fields start after its last ')'.
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((i) => Number(fields[i]) / ticksPerSecond);
	return { self: utime! + stime!, children: cutime! + cstime! };
}
