// The ten test files that used the most CPU in this run, for npm test's closing lines (before the
// summary line). tests/helpers/file-cpu.ts appends one line per integration file to each run's
// TEST_CPU_REPORT file (CPU seconds and the file's wall time). CPU seconds are what a busy machine
// changes least, so these are the figures to compare across runs (docs/development.md, "Suite time").
import { existsSync, readFileSync } from 'node:fs';

const SHOWN = 10;

/** @param {{ cpu: string, run: string }[]} runs */
export function heaviestFiles(runs) {
	const rows = runs.flatMap(({ cpu, run }) =>
		readJsonLines(cpu).map((row) => ({ ...row, run, cpu: row.self + row.children }))
	);
	if (rows.length === 0) return [];
	const total = rows.reduce((sum, row) => sum + row.cpu, 0);
	const top = rows.sort((a, b) => b.cpu - a.cpu).slice(0, SHOWN);
	return [
		`\nCPU per test file (user + system seconds its process used while it ran, and the processes it started), the ${top.length} highest of ${rows.length} files, ${Math.round(total)} s in all:`,
		...top.map(
			(row) =>
				`  ${seconds(row.cpu)} s CPU (${seconds(row.self)} own + ${seconds(row.children)} started)` +
				`, ${seconds(row.wall)} s wall  ${row.run} ${row.file}`
		)
	];
}

/**
 * The rows a setup file appended to a report, one JSON object a line; none when the file is absent.
 * @param {string} path
 * @returns {any[]}
 */
export function readJsonLines(path) {
	if (!existsSync(path)) return [];
	return readFileSync(path, 'utf8')
		.split('\n')
		.filter((line) => line.trim() !== '')
		.map((line) => JSON.parse(line));
}

/** @param {number} value */
function seconds(value) {
	return value >= 10 ? String(Math.round(value)) : value.toFixed(1);
}
