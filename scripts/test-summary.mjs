// Prints the closing line of a test run from the JSON reports of both vitest runs and Playwright:
//   tests: N passed, N failed, N skipped
// Exits non-zero when a report is missing or anything failed, so CI cannot pass on a silent run.
import { existsSync, readFileSync } from 'node:fs';

const totals = { passed: 0, failed: 0, skipped: 0 };
const missing = [];

function read(path) {
	if (!existsSync(path)) {
		missing.push(path);
		return null;
	}
	return JSON.parse(readFileSync(path, 'utf8'));
}

// The whole vitest run on SQLite, then the integration core again on PostgreSQL (tests/postgres-core.txt).
for (const path of ['.tmp/vitest-report.json', '.tmp/vitest-postgres-report.json']) {
	const vitest = read(path);
	if (!vitest) continue;
	totals.passed += vitest.numPassedTests;
	totals.failed += vitest.numFailedTests + (vitest.numFailedTestSuites > 0 && vitest.numFailedTests === 0 ? vitest.numFailedTestSuites : 0);
	totals.skipped += vitest.numPendingTests + vitest.numTodoTests;
}

const playwright = read('.tmp/playwright-report.json');
if (playwright) {
	const s = playwright.stats;
	totals.passed += s.expected + s.flaky;
	totals.failed += s.unexpected;
	totals.skipped += s.skipped;
	if (playwright.errors?.length) totals.failed += playwright.errors.length;
}

for (const path of missing) console.log(`missing test report: ${path} (that runner did not finish)`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 || missing.length > 0 || totals.passed === 0 ? 1 : 0);
