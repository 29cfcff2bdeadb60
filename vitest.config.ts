import { configDefaults, defineConfig } from 'vitest/config';

// Node-side tests only (unit specs beside the code, integration tests, tool tests).
// Browser tests run under Playwright (tests/e2e).
// Two projects: `node` (SQLite, no server) and `postgres` (tests/integration/postgres/), whose
// globalSetup starts one throwaway PostgreSQL cluster for the run — only when one of its files runs.
const POSTGRES_TESTS = 'tests/integration/postgres/**/*.test.ts';

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
					exclude: [...configDefaults.exclude, POSTGRES_TESTS]
				}
			},
			{
				extends: true,
				test: { name: 'postgres', include: [POSTGRES_TESTS], globalSetup: ['tests/helpers/pg-global-setup.ts'] }
			}
		]
	}
});
