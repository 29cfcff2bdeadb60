// The test files that left something running when they ended (tests/helpers/file-handles.ts
// appends one line per such file to each run's TEST_HANDLES_REPORT file). Files share their
// process, so what one leaves runs on in the files after it: npm test counts each such file as a
// failure, with what it left, in its closing lines.
import { readJsonLines } from './test-cpu-report.mjs';

/**
 * One failure line per file that left something running, e.g.
 * "[vitest sqlite] tests/integration/a.test.ts\n    left running after its last hook: 1 ProcessWrap".
 * @param {{ path: string, run: string }[]} runs
 * @returns {string[]}
 */
export function filesLeftRunning(runs) {
	return runs.flatMap(({ path, run }) =>
		readJsonLines(path).map(
			(row) =>
				`${run} ${row.file}\n    left running after its last hook (tests/helpers/file-handles.ts): ${Object.entries(
					row.left
				)
					.map(([kind, n]) => `${n} ${kind}`)
					.join(', ')}`
		)
	);
}
