import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

// Node-side tests only (unit specs beside the code, integration tests, tool tests).
// Browser tests run under Playwright (tests/e2e).
// Two projects: `node` (SQLite, no server) and `postgres` (tests/integration/postgres/), whose
// globalSetup starts one throwaway PostgreSQL cluster for the run — only when one of its files runs.
const POSTGRES_TESTS = 'tests/integration/postgres/**/*.test.ts';
const INTEGRATION_TESTS = 'tests/integration/**/*.test.ts';
const UNIT_SPECS = ['src/**/*.spec.ts', 'tools/**/*.spec.ts'];
const PG_GLOBAL_SETUP = 'tests/helpers/pg-global-setup.ts';
// The migrated SQLite file createTestDb copies (tests/helpers/sqlite-template-setup.ts).
const SQLITE_TEMPLATE_SETUP = 'tests/helpers/sqlite-template-setup.ts';
// The worker and upload checker bundles the tests start, built from the sources (tests/helpers/node-bundles-setup.ts).
const NODE_BUNDLES_SETUP = 'tests/helpers/node-bundles-setup.ts';
// TEST_DB_ENGINE=postgresql runs the `node` project's tests on PostgreSQL too: useTestDb and
// createTestDb then hand out copies of the cluster's migrated template instead of SQLite files.
const nodeOnPostgres = process.env.TEST_DB_ENGINE === 'postgresql';
// One test file per core, at least two. vitest's own default is cores − 1, which on our 2-core
// machines ran the 210 files one after another (20 min) while most of them wait on a real process,
// a socket or a poll. `--maxWorkers=N` on the command line still wins.
const FILES_AT_ONCE = Math.max(2, availableParallelism());

export default defineConfig({
	test: {
		environment: 'node',
		// Limits for a hung test, not a speed target: files run side by side and the machine may be busy
		// with other work, so a test that takes 20 s alone can take three times that. Waits inside
		// tests end on the event they wait for; these only stop a test that will never finish.
		testTimeout: 90_000,
		hookTimeout: 120_000,
		// Each file's CPU seconds when TEST_CPU_REPORT is set (npm test lists the heaviest), and what
		// each file left running (timers, servers, sockets, processes) for the next file in its process.
		setupFiles: ['tests/helpers/file-cpu.ts', 'tests/helpers/file-handles.ts'],
		// Every test file runs in a child process (forks) that is not isolated: it runs file after file
		// with its modules already loaded, so the face models, sharp, the Prisma clients and our own
		// modules are loaded once per process, not once per file (the 157 integration files on SQLite:
		// 423 s instead of ≈ 1000 s on 2 cores; docs/development.md, "Suite time"). What keeps that
		// safe: no test file mocks a module, stubs a global or the environment, fakes timers or writes
		// process.env (eslint.config.js refuses them), and each file closes what it opens. The unit
		// specs run in the same pool (one way files share a process, one minWorkers rule below).
		// vitest 3.2 takes isolation from the root's pool options, not from a project's `isolate`.
		pool: 'forks',
		poolOptions: { forks: { isolate: false } },
		maxWorkers: FILES_AT_ONCE,
		// As many kept as at most: tinypool retires a pool process above minWorkers when it idles, and
		// at the end of a project's files vitest retires the idle ones too; when both pick the same
		// process its second teardown fails the whole run with "Terminating worker thread" (an
		// unhandled rejection; seen twice here at --maxWorkers=3 with minWorkers 1).
		minWorkers: FILES_AT_ONCE,
		projects: [
			{
				extends: true,
				test: {
					name: 'node',
					include: nodeOnPostgres ? [...UNIT_SPECS, INTEGRATION_TESTS] : [INTEGRATION_TESTS],
					exclude: [...configDefaults.exclude, POSTGRES_TESTS],
					globalSetup: [nodeOnPostgres ? PG_GLOBAL_SETUP : SQLITE_TEMPLATE_SETUP, NODE_BUNDLES_SETUP]
				}
			},
			// The unit specs beside the code, a project of their own (`--project unit`): a fresh process
			// per file cost each about a second of imports, more than most take to run; shared, all 84
			// took 33 s of CPU instead of 67 s (docs/development.md, "Suite time").
			...(nodeOnPostgres
				? []
				: [
						{
							extends: true as const,
							test: {
								name: 'unit',
								include: UNIT_SPECS,
								globalSetup: [SQLITE_TEMPLATE_SETUP]
							}
						}
					]),
			{
				extends: true,
				test: { name: 'postgres', include: [POSTGRES_TESTS], globalSetup: [PG_GLOBAL_SETUP, NODE_BUNDLES_SETUP] }
			}
		]
	}
});
