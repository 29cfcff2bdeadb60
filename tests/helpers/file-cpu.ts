import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { afterAll } from 'vitest';
import { currentTestFile } from './current-test-file.ts';

/**
 * What a test file cost in CPU, for npm test's list of the heaviest files (scripts/test-summary.mjs).
 * On a busy machine wall time says more about the neighbours than about the file; CPU seconds barely
 * move. Test files run in child processes that take one file after another (forks, not isolated),
 * and vitest runs this setup file again before each of them: it reads the process's
 * user + system time here and again after the file's own after-hooks (registered first, so it runs
 * last), and the difference is the file's, its imports included. The children it started and waited
 * for (worker and web processes, ffmpeg under them) are in the kernel's cutime/cstime. Off unless
 * TEST_CPU_REPORT names the file to append to; not in a worker thread (its process's counters are
 * shared with the other threads' files), nor where /proc is absent.
 */
const report = process.env.TEST_CPU_REPORT;

if (report && isMainThread && existsSync('/proc/self/stat')) {
	const before = cpuSeconds(readFileSync('/proc/self/stat', 'utf8'));
	const startedMs = performance.now();
	afterAll(() => {
		const after = cpuSeconds(readFileSync('/proc/self/stat', 'utf8'));
		const file = currentTestFile();
		const row = {
			file,
			self: after.self - before.self,
			children: after.children - before.children,
			wall: (performance.now() - startedMs) / 1000
		};
		appendFileSync(report, JSON.stringify(row) + '\n');
	});
}

/** utime, stime, cutime, cstime of proc(5)'s stat line (clock ticks; 100 a second on Linux). */
export function cpuSeconds(stat: string, ticksPerSecond = 100): { self: number; children: number } {
	// The command name may hold spaces and parentheses; the fields start after its last ')'.
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((i) => Number(fields[i]) / ticksPerSecond);
	return { self: utime! + stime!, children: cutime! + cstime! };
}
