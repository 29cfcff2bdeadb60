// Prints the closing lines of a test run from the JSON reports of both vitest runs and Playwright:
// the ten test files that used the most CPU (scripts/test-cpu-report.mjs), each failed test by file
// and name, each test file that left something running (scripts/test-handles-report.mjs), and each
// check that failed before the tests (type check, Prettier, ESLint, the build: .tmp/failed-checks.txt, written by
// scripts/test.sh) — CI keeps only the tail of the output, so the names must be there — then the one
// summary line
//   tests: N passed, N failed, N skipped
// Exits non-zero when a report is missing or anything failed, so CI cannot pass on a silent run.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { heaviestFiles } from './test-cpu-report.mjs';
import { filesLeftRunning } from './test-handles-report.mjs';

const totals = { passed: 0, failed: 0, skipped: 0 };
const missing = [];
const failures = [];

function read(path) {
	if (!existsSync(path)) {
		missing.push(path);
		return null;
	}
	return JSON.parse(readFileSync(path, 'utf8'));
}

function firstLine(text) {
	return (
		String(text ?? '')
			.split('\n')
			.find((line) => line.trim() !== '')
			?.trim()
			.slice(0, 200) ?? ''
	);
}

function vitestFailures(report, run) {
	for (const file of report.testResults ?? []) {
		const name = relative(process.cwd(), file.name);
		const failed = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
		for (const test of failed) {
			failures.push(`${run} ${name} > ${test.fullName}\n    ${firstLine(test.failureMessages?.[0])}`);
		}
		// A file that failed before any test ran (an import error, a hook) has no failed test of its own.
		if (file.status === 'failed' && failed.length === 0)
			failures.push(`${run} ${name}\n    ${firstLine(file.message)}`);
	}
}

function playwrightFailures(suites, trail = []) {
	for (const suite of suites ?? []) {
		const path = suite.title ? [...trail, suite.title] : trail;
		for (const spec of suite.specs ?? []) {
			for (const test of spec.tests ?? []) {
				if (test.status !== 'unexpected') continue;
				const error = test.results?.at(-1)?.error?.message;
				failures.push(`[playwright ${test.projectName}] ${[...path, spec.title].join(' > ')}\n    ${firstLine(error)}`);
			}
		}
		playwrightFailures(suite.suites, path);
	}
}

// The whole vitest run on SQLite, then the integration core again on PostgreSQL (tests/postgres-core.txt).
for (const [path, run] of [
	['.tmp/vitest-report.json', '[vitest sqlite]'],
	['.tmp/vitest-postgres-report.json', '[vitest postgresql]']
]) {
	const vitest = read(path);
	if (!vitest) continue;
	totals.passed += vitest.numPassedTests;
	totals.failed +=
		vitest.numFailedTests +
		(vitest.numFailedTestSuites > 0 && vitest.numFailedTests === 0 ? vitest.numFailedTestSuites : 0);
	totals.skipped += vitest.numPendingTests + vitest.numTodoTests;
	vitestFailures(vitest, run);
}

const playwright = read('.tmp/playwright-report.json');
if (playwright) {
	const s = playwright.stats;
	totals.passed += s.expected + s.flaky;
	totals.failed += s.unexpected;
	totals.skipped += s.skipped;
	playwrightFailures(playwright.suites);
	for (const error of playwright.errors ?? []) failures.push(`[playwright] ${firstLine(error.message)}`);
	if (playwright.errors?.length) totals.failed += playwright.errors.length;
}

for (const line of heaviestFiles([
	{ cpu: '.tmp/vitest-cpu.jsonl', run: '[vitest sqlite]' },
	{ cpu: '.tmp/vitest-postgres-cpu.jsonl', run: '[vitest postgresql]' }
]))
	console.log(line);
// A file that left a timer, socket or process running fails the run like a failed test.
const leftRunning = filesLeftRunning([
	{ path: '.tmp/vitest-handles.jsonl', run: '[vitest sqlite]' },
	{ path: '.tmp/vitest-postgres-handles.jsonl', run: '[vitest postgresql]' }
]);
failures.push(...leftRunning);
totals.failed += leftRunning.length;
if (failures.length > 0) {
	console.log(`\nfailed (${failures.length}):`);
	for (const failure of failures) console.log(`  ${failure}`);
}
for (const path of missing) console.log(`missing test report: ${path} (that runner did not finish)`);
const failedChecks = existsSync('.tmp/failed-checks.txt')
	? readFileSync('.tmp/failed-checks.txt', 'utf8')
			.split('\n')
			.filter((line) => line.trim() !== '')
	: [];
if (failedChecks.length > 0)
	console.log(`checks failed (${failedChecks.length}; their output is above): ${failedChecks.join(', ')}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
const red = totals.failed > 0 || missing.length > 0 || totals.passed === 0 || failedChecks.length > 0;
process.exit(red ? 1 : 0);
