import { configDefaults, defineConfig } from 'vitest/config';

// Node-side tests only (unit specs beside the code, integration tests, tool tests).
// Browser tests run under Playwright (tests/e2e).
// Two projects: `node` (SQLite, no server) and `postgres` (tests/integration/postgres/), whose
// globalSetup starts one throwaway PostgreSQL cluster for the run — only when one of its files runs.
const POSTGRES_TESTS = 'tests/integration/postgres/**/*.test.ts';
const PG_GLOBAL_SETUP = 'tests/helpers/pg-global-setup.ts';
// TEST_DB_ENGINE=postgresql runs the `node` project's tests on PostgreSQL too: useTestDb and
// createTestDb then hand out copies of the cluster's migrated template instead of SQLite files.
const nodeOnPostgres = process.env.TEST_DB_ENGINE === 'postgresql';

export default defineConfig({
	test: {
		environment: 'node',
		testTimeout: 30_000,
		hookTimeout: 60_000,
		pool: 'forks',
		projects: [
			{
				extends: true,
				test: {
					name: 'node',
					include: ['src/**/*.spec.ts', 'tests/integration/**/*.test.ts', 'tools/**/*.spec.ts'],
					exclude: [...configDefaults.exclude, POSTGRES_TESTS],
					globalSetup: nodeOnPostgres ? [PG_GLOBAL_SETUP] : []
				}
			},
			{
				extends: true,
				test: { name: 'postgres', include: [POSTGRES_TESTS], globalSetup: [PG_GLOBAL_SETUP] }
			}
		]
	}
});
