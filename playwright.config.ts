import { defineConfig } from '@playwright/test';

/**
 * Browser tests in Debian's Chromium (no browser download on our machines). The product runs as a
 * user would run it — built web server, worker and Telegram emulator through scripts/run-all.ts —
 * on its own ports and its own data directory under .tmp/.
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4173);
export const E2E_EMULATOR_PORT = Number(process.env.E2E_EMULATOR_PORT ?? 18081);
const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? '.tmp/e2e-data';
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`;

export default defineConfig({
	testDir: 'tests/e2e',
	testMatch: '*.e2e.ts',
	timeout: 60_000,
	fullyParallel: false,
	workers: 1,
	retries: 0,
	outputDir: '.tmp/playwright-results',
	use: {
		baseURL: E2E_BASE_URL,
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
	webServer: {
		command: `rm -rf ${E2E_DATA_DIR} && node --import tsx scripts/run-all.ts`,
		url: `${E2E_BASE_URL}/health`,
		reuseExistingServer: false,
		timeout: 120_000,
		stdout: 'ignore',
		stderr: 'pipe',
		env: {
			NODE_ENV: 'test',
			LOG_LEVEL: 'warn',
			PORT: String(E2E_PORT),
			EMULATOR_PORT: String(E2E_EMULATOR_PORT),
			PUBLIC_BASE_URL: E2E_BASE_URL,
			DATA_DIR: E2E_DATA_DIR,
			DB_PATH: `${E2E_DATA_DIR}/app.db`,
			TELEGRAM_BOT_TOKEN: '',
			TELEGRAM_API_ROOT: ''
		}
	}
});
