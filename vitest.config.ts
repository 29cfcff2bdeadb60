import { defineConfig } from 'vitest/config';

// Node-side tests only (unit specs beside the code, integration tests, tool tests).
// Browser tests run under Playwright (tests/e2e).
export default defineConfig({
	test: {
		include: ['src/**/*.spec.ts', 'tests/integration/**/*.test.ts', 'tools/**/*.spec.ts'],
		environment: 'node',
		testTimeout: 30_000,
		hookTimeout: 60_000,
		pool: 'forks'
	}
});
