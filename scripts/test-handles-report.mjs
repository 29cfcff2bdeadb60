// The test files that left something running when they ended (tests/helpers/file-handles.ts
// appends one line per such file to each run's TEST_HANDLES_REPORT file), for npm test's closing
// lines. Files share their process, so what one leaves runs on in the files after it.
import { readJsonLines } from './test-cpu-report.mjs';

/** @param {{ path: string, run: string }[]} runs */
export function filesLeftRunning(runs) {
	const rows = runs.flatMap(({ path, run }) => readJsonLines(path).map((row) => ({ ...row, run })));
	if (rows.length === 0) return [];
	return [
		`\nTest files that left something running when they ended (${rows.length}; tests/helpers/file-handles.ts):`,
		...rows.map(
			(row) =>
				`  ${row.run} ${row.file}: ${Object.entries(row.left)
					.map(([kind, n]) => `${n} ${kind}`)
					.join(', ')}`
		)
	];
}
