import { defineConfig } from '@playwright/test';
import type { ProductStackWorkerOptions } from './tests/e2e/product-stack.ts';

/**
 * Browser tests in Debian's Chromium (no browser download on our machines). The product runs as a
 * user would run it — built web server, worker and Telegram emulator through scripts/run-all.ts —
 * on its own ports and its own data directory under .tmp/. Two projects: `sqlite` runs every spec
 * on the SQLite product; `postgres-s3` runs the guest flow (kiosk.e2e.ts) again on a second
 * product on a throwaway PostgreSQL cluster and s3rver (tests/e2e/pg-s3-stack.ts). With
 * E2E_WORKERS=2 the two projects run side by side, each one spec at a time.
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4173);
export const E2E_EMULATOR_PORT = Number(process.env.E2E_EMULATOR_PORT ?? 18081);
const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? '.tmp/e2e-data';
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`;

const PG_PORT = Number(process.env.E2E_PG_PORT ?? 4174);
const PG_EMULATOR_PORT = Number(process.env.E2E_PG_EMULATOR_PORT ?? 18082);
const PG_DATA_DIR = process.env.E2E_PG_DATA_DIR ?? '.tmp/e2e-pg-s3-data';
const PG_BASE_URL = `http://localhost:${PG_PORT}`;

const productEnv = (port: number, emulatorPort: number, baseUrl: string, dataDir: string) => ({
	NODE_ENV: 'test',
	LOG_LEVEL: 'warn',
	PORT: String(port),
	EMULATOR_PORT: String(emulatorPort),
	PUBLIC_BASE_URL: baseUrl,
	DATA_DIR: dataDir,
	TELEGRAM_BOT_TOKEN: '',
	TELEGRAM_API_ROOT: ''
});

/**
 * The projects named with --project, or all. A product only one project uses starts only when
 * that project runs (the PostgreSQL one takes a few seconds and a cluster to start).
 */
function selectedProjects(): (name: string) => boolean {
	const named = process.argv.flatMap((arg, i) =>
		arg.startsWith('--project=')
			? [arg.slice('--project='.length)]
			: arg === '--project'
				? [process.argv[i + 1] ?? '']
				: []
	);
	// Playwright matches --project case-insensitively, with * as a wildcard.
	const patterns = named.map(
		(pattern) =>
			new RegExp(
				`^${pattern
					.split('*')
					.map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
					.join('.*')}$`,
				'i'
			)
	);
	return (name) => patterns.length === 0 || patterns.some((pattern) => pattern.test(name));
}
const runs = selectedProjects();

const sqliteProduct = {
	name: 'sqlite',
	command: `rm -rf ${E2E_DATA_DIR} && node --import tsx scripts/run-all.ts`,
	url: `${E2E_BASE_URL}/health`,
	reuseExistingServer: false,
	timeout: 120_000,
	stdout: 'ignore' as const,
	stderr: 'pipe' as const,
	env: { ...productEnv(E2E_PORT, E2E_EMULATOR_PORT, E2E_BASE_URL, E2E_DATA_DIR), DB_PATH: `${E2E_DATA_DIR}/app.db` }
};

const postgresS3Product = {
	name: 'postgres-s3',
	command: 'node --import tsx tests/e2e/pg-s3-stack.ts',
	// Ready once the stack prints this line (after /health answers); the groups become the tests'
	// E2E_PG_DATABASE_URL and E2E_S3_BUCKET_URL (tests/e2e/product-stack.ts reads them).
	wait: { stdout: /pg-s3 stack ready: database (?<e2e_pg_database_url>\S+) bucket (?<e2e_s3_bucket_url>\S+)/ },
	timeout: 120_000,
	// SIGTERM, not Playwright's default SIGKILL: the stack must stop the cluster (pg_ctl puts it
	// outside our process group) and remove its temporary folders.
	gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 40_000 },
	stdout: 'ignore' as const,
	stderr: 'pipe' as const,
	env: productEnv(PG_PORT, PG_EMULATOR_PORT, PG_BASE_URL, PG_DATA_DIR)
};

export default defineConfig<object, ProductStackWorkerOptions>({
	testDir: 'tests/e2e',
	testMatch: '*.e2e.ts',
	timeout: 60_000,
	fullyParallel: false,
	// One worker per product at most: the SQLite specs share one product and its database
	// (console-access removes every operator, database-busy holds the write lock), so they run one
	// at a time (`workers: 1` on the project). E2E_WORKERS=2 runs the PostgreSQL + S3 project, a
	// separate product with its own ports, data, cluster and bucket, beside them instead of after
	// them. Not the default: on a busy 2-core machine both guest flows at once missed the specs'
	// 5 s and 15 s waits (docs/development.md, "Suite time").
	workers: Number(process.env.E2E_WORKERS ?? 1),
	retries: 0,
	outputDir: '.tmp/playwright-results',
	use: {
		trace: 'retain-on-failure',
		launchOptions: {
			executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
			args: [
				'--no-sandbox',
				'--disable-gpu',
				'--disable-background-networking',
				'--disable-component-update',
				'--disable-sync',
				'--use-fake-ui-for-media-stream',
				'--use-fake-device-for-media-stream'
			]
		}
	},
	projects: [
		{
			name: 'sqlite',
			workers: 1,
			use: {
				baseURL: E2E_BASE_URL,
				productStack: { engine: 'sqlite', emulatorPort: E2E_EMULATOR_PORT, dataDir: E2E_DATA_DIR }
			}
		},
		{
			name: 'postgres-s3',
			testMatch: 'kiosk.e2e.ts',
			workers: 1,
			use: {
				baseURL: PG_BASE_URL,
				productStack: { engine: 'postgres-s3', emulatorPort: PG_EMULATOR_PORT, dataDir: PG_DATA_DIR }
			}
		}
	],
	webServer: [sqliteProduct, postgresS3Product].filter((product) => runs(product.name))
});
