import { appendFileSync } from 'node:fs';
// Imported as an ES module, node:process reads every getter of `process` once, stdin's too, which
// opens fd 0 (a pipe in vitest's forks) for the rest of the process's life. Done here, before the
// count, so the first file of a process that imports node:process is not charged with stdin.
import process from 'node:process';
import { afterAll } from 'vitest';
import { currentTestFile } from './current-test-file.ts';

/**
 * What a test file left running. Test files share their process (vitest.config.ts: forks, not
 * isolated), so a timer, server, socket or child process a file leaves open runs on into the files
 * after it: it spends their CPU and can act on their databases. Vitest runs this setup file again
 * before each file: it counts the process's active resources (Node's own list: Timeout,
 * TCPServerWrap, TCPSocketWrap, ProcessWrap, PipeWrap, …) here and again after the file's own
 * after-hooks (registered first, so it runs last). What is still closing gets up to SETTLE_MS to
 * close (a killed child's exit, its pipes, vitest's own short timers); what grew and stays is the
 * file's. With TEST_HANDLES_REPORT naming a file, each such file is appended to it, and npm test
 * counts it as a failure (scripts/test-handles-report.mjs). A file that leaves nothing waits not
 * at all; the limit is generous so that a slow exit on a busy machine is not taken for a leak.
 */
const report = process.env.TEST_HANDLES_REPORT;
const SETTLE_MS = 10_000;

if (report) {
	const before = countByKind(process.getActiveResourcesInfo());
	afterAll(async () => {
		const left = await leftAfterSettling(before);
		if (Object.keys(left).length === 0) return;
		appendFileSync(report, JSON.stringify({ file: currentTestFile(), left }) + '\n');
	}, SETTLE_MS + 5_000);
}

export function countByKind(resources: string[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const kind of resources) counts[kind] = (counts[kind] ?? 0) + 1;
	return counts;
}

/** The kinds there are more of now than before, and how many more. */
export function grown(before: Record<string, number>, now: Record<string, number>): Record<string, number> {
	const more: Record<string, number> = {};
	for (const [kind, n] of Object.entries(now)) if (n > (before[kind] ?? 0)) more[kind] = n - (before[kind] ?? 0);
	return more;
}

/** Looks again every 100 ms until nothing has grown or SETTLE_MS is over; a file that left nothing waits not at all. */
export async function leftAfterSettling(before: Record<string, number>): Promise<Record<string, number>> {
	const deadline = performance.now() + SETTLE_MS;
	for (;;) {
		// A closed server or socket leaves the list on a later turn of the event loop, not at once.
		for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
		const left = grown(before, countByKind(process.getActiveResourcesInfo()));
		if (Object.keys(left).length === 0 || performance.now() > deadline) return left;
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}
