import { defineConfig } from '@playwright/test';
import type { ProductStackWorkerOptions } from './tests/e2e/product-stack.ts';

/**
 * Browser tests in Debian's Chromium (no browser download on our machines). The product runs as a
 * user would run it — built web server, worker and Telegram emulator through scripts/run-all.ts —
 * on its own ports and its own data directory under .tmp/. Three projects, each with a product of
 * its own: `sqlite` runs the console, landing and bot specs on a SQLite product; `sqlite-kiosk` the
 * kiosk and guest-flow specs (KIOSK_SPECS) on a second SQLite product; `postgres-s3` the guest flow
 * (kiosk.e2e.ts) again on a product on a throwaway PostgreSQL cluster and s3rver
 * (tests/e2e/pg-s3-stack.ts). Each project runs one spec at a time on its product; two workers
 * (E2E_WORKERS, default 2) run two projects side by side.
 */
/**
 * Debian's chromium-headless-shell (the old headless mode, without the full browser's windowing and
 * UI layers): the accessibility spec used about a third less CPU in it than in the full chromium
 * headless (docs/development.md, "Suite time"). To watch a test: CHROMIUM_PATH=/usr/bin/chromium
 * with --headed (the shell cannot show a window).
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 4173);
export const E2E_EMULATOR_PORT = Number(process.env.E2E_EMULATOR_PORT ?? 18081);
const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? '.tmp/e2e-data';
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`;

const KIOSK_PORT = Number(process.env.E2E_KIOSK_PORT ?? 4175);
const KIOSK_EMULATOR_PORT = Number(process.env.E2E_KIOSK_EMULATOR_PORT ?? 18083);
const KIOSK_DATA_DIR = process.env.E2E_KIOSK_DATA_DIR ?? '.tmp/e2e-kiosk-data';
const KIOSK_BASE_URL = `http://localhost:${KIOSK_PORT}`;

/**
 * The specs of the `sqlite-kiosk` project. They reach their product only through the `product`
 * fixture and console-operator.ts (which follow the running project), never through the
 * E2E_PORT / E2E_EMULATOR_PORT / E2E_DATA_DIR above, which name the `sqlite` project's product.
 */
export const KIOSK_SPECS = [
	'kiosk.e2e.ts',
	'kiosk-venue.e2e.ts',
	'kiosk-brand.e2e.ts',
	'kiosk-start-limit.e2e.ts',
	'start-page.e2e.ts',
	'session-end.e2e.ts',
	'operator-walkthrough.e2e.ts'
];

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

const sqliteProduct = (name: string, port: number, emulatorPort: number, baseUrl: string, dataDir: string) => ({
	name,
	command: `rm -rf ${dataDir} && node --import tsx scripts/run-all.ts`,
	url: `${baseUrl}/health`,
	reuseExistingServer: false,
	timeout: 120_000,
	stdout: 'ignore' as const,
	stderr: 'pipe' as const,
	env: { ...productEnv(port, emulatorPort, baseUrl, dataDir), DB_PATH: `${dataDir}/app.db` }
});

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
	// An assertion waits up to 10 s, not Playwright's 5: on a busy CI runner a page that needs the
	// server and then its script can take seconds, and these waits are limits for a hang, not speed
	// promises (a green run never waits for them; the specs that promise a time poll with their own).
	expect: { timeout: 10_000 },
	fullyParallel: false,
	// One worker per product at most (`workers: 1` on each project): the specs of a project share
	// its product and database, and some change what every other spec on it sees (console-access
	// removes every operator, database-busy holds the write lock, console-settings switches the bot
	// token). Two workers run two projects side by side: the specs' waits are limits for a hang, not
	// speed promises, so a second product drawing stickers beside them only makes them wait longer
	// (docs/development.md, "Suite time"). E2E_WORKERS=1 runs the projects one after the other.
	workers: Number(process.env.E2E_WORKERS ?? 2),
	retries: 0,
	outputDir: '.tmp/playwright-results',
	use: {
		trace: { mode: 'retain-on-failure', screenshots: false },
		launchOptions: {
			executablePath: process.env.CHROMIUM_PATH ?? HEADLESS_SHELL,
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
			testIgnore: KIOSK_SPECS,
			workers: 1,
			use: {
				baseURL: E2E_BASE_URL,
				productStack: { engine: 'sqlite', emulatorPort: E2E_EMULATOR_PORT, dataDir: E2E_DATA_DIR }
			}
		},
		{
			name: 'sqlite-kiosk',
			testMatch: KIOSK_SPECS,
			workers: 1,
			use: {
				baseURL: KIOSK_BASE_URL,
				productStack: { engine: 'sqlite', emulatorPort: KIOSK_EMULATOR_PORT, dataDir: KIOSK_DATA_DIR }
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
	webServer: [
		sqliteProduct('sqlite', E2E_PORT, E2E_EMULATOR_PORT, E2E_BASE_URL, E2E_DATA_DIR),
		sqliteProduct('sqlite-kiosk', KIOSK_PORT, KIOSK_EMULATOR_PORT, KIOSK_BASE_URL, KIOSK_DATA_DIR),
		postgresS3Product
	].filter((product) => runs(product.name))
});
