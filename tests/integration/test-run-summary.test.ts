import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/node-process.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

// npm test's two vitest runs (SQLite, then the core on PostgreSQL) and Playwright end in one line.
const SUMMARY = path.join(PROJECT_ROOT, 'scripts', 'test-summary.mjs');

function vitestReport(passed: number, failed: number, skipped: number) {
	return {
		numPassedTests: passed,
		numFailedTests: failed,
		numFailedTestSuites: failed > 0 ? 1 : 0,
		numPendingTests: skipped,
		numTodoTests: 0
	};
}

function playwrightReport(expected: number) {
	return { stats: { expected, flaky: 0, unexpected: 0, skipped: 0 }, errors: [] };
}

function summarise(dir: string, reports: Record<string, unknown>): { line: string; status: number | null } {
	mkdirSync(path.join(dir, '.tmp'), { recursive: true });
	for (const [name, report] of Object.entries(reports))
		writeFileSync(path.join(dir, '.tmp', name), typeof report === 'string' ? report : JSON.stringify(report));
	const run = spawnSync(process.execPath, [SUMMARY], { cwd: dir, encoding: 'utf8' });
	return { line: run.stdout.trim(), status: run.status };
}

/** The files tests/postgres-core.txt names: one a line, `#` comments and blank lines left out. */
function postgresCore(): string[] {
	return readFileSync(path.join(PROJECT_ROOT, 'tests', 'postgres-core.txt'), 'utf8')
		.split('\n')
		.map((line) => line.trim())
		.filter((line) => line !== '' && !line.startsWith('#'));
}

describe('the closing line of npm test', () => {
	const tempDir = useTempDir('test-summary-');

	it('counts the SQLite run, the PostgreSQL pass and Playwright together', () => {
		const { line, status } = summarise(tempDir(), {
			'vitest-report.json': vitestReport(900, 0, 2),
			'vitest-postgres-report.json': vitestReport(120, 0, 1),
			'playwright-report.json': playwrightReport(40)
		});
		expect(line).toBe('tests: 1060 passed, 0 failed, 3 skipped');
		expect(status).toBe(0);
	});

	it('a failure in the PostgreSQL pass fails the run', () => {
		const { line, status } = summarise(tempDir(), {
			'vitest-report.json': vitestReport(900, 0, 0),
			'vitest-postgres-report.json': vitestReport(119, 1, 0),
			'playwright-report.json': playwrightReport(40)
		});
		expect(line).toBe('tests: 1059 passed, 1 failed, 0 skipped');
		expect(status).toBe(1);
	});

	it('a test file that left something running fails the run and is named with what it left', () => {
		const leak = { file: 'tests/integration/leaky.test.ts', left: { TCPSocketWrap: 1 } };
		const { line, status } = summarise(tempDir(), {
			'vitest-report.json': vitestReport(900, 0, 0),
			'vitest-postgres-report.json': vitestReport(120, 0, 0),
			'playwright-report.json': playwrightReport(40),
			'vitest-postgres-handles.jsonl': JSON.stringify(leak) + '\n'
		});
		expect(line).toContain(
			'[vitest postgresql] tests/integration/leaky.test.ts\n    left running after its last hook (tests/helpers/file-handles.ts): 1 TCPSocketWrap'
		);
		expect(line.split('\n').at(-1)).toBe('tests: 1060 passed, 1 failed, 0 skipped');
		expect(status).toBe(1);
	});

	it('a check that failed before the tests (Prettier, say) is named above the line and fails the run', () => {
		const { line, status } = summarise(tempDir(), {
			'vitest-report.json': vitestReport(900, 0, 0),
			'vitest-postgres-report.json': vitestReport(120, 0, 0),
			'playwright-report.json': playwrightReport(40),
			'failed-checks.txt': "lint: Prettier's check\n"
		});
		expect(line.split('\n').slice(-2)).toEqual([
			"checks failed (1; their output is above): lint: Prettier's check",
			'tests: 1060 passed, 0 failed, 0 skipped'
		]);
		expect(status).toBe(1);
	});

	it('a PostgreSQL pass that wrote no report fails the run and is named', () => {
		const { line, status } = summarise(tempDir(), {
			'vitest-report.json': vitestReport(900, 0, 0),
			'playwright-report.json': playwrightReport(40)
		});
		expect(line).toContain('missing test report: .tmp/vitest-postgres-report.json');
		expect(line).toContain('tests: 940 passed, 0 failed, 0 skipped');
		expect(status).toBe(1);
	});
});

describe('the PostgreSQL core list', () => {
	it('names integration test files that exist, each once', () => {
		const files = postgresCore();
		expect(files.length).toBeGreaterThan(10);
		expect(new Set(files).size).toBe(files.length);
		for (const file of files) {
			expect(file).toMatch(/^tests\/integration\/[a-z0-9-]+\.test\.ts$/);
			expect(existsSync(path.join(PROJECT_ROOT, file)), file).toBe(true);
		}
	});
});
