import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTs } from '../../../../tests/helpers/node-process.ts';
import { ConfigError, EMULATOR_BOT_TOKEN, parseConfig } from './config.ts';

const ROOT = '/srv/kiosk';

function problemsOf(env: Record<string, string>): string[] {
	try {
		parseConfig(env, ROOT);
	} catch (error) {
		if (error instanceof ConfigError) return error.problems;
		throw error;
	}
	throw new Error('expected the configuration to be refused');
}

describe('configuration', () => {
	it('runs with nothing set: SQLite under ./data, offline provider, the Telegram emulator', () => {
		const config = parseConfig({}, ROOT);
		expect(config.dbPath).toBe('/srv/kiosk/data/app.db');
		expect(config.dataDir).toBe('/srv/kiosk/data');
		expect(config.IMAGE_PROVIDER).toBe('offline');
		expect(config.PHOTO_TTL_HOURS).toBe(72);
		expect(config.WORKER_SLOTS).toBe(2);
		expect(config.publicBaseUrl).toBe('http://localhost:3000');
		expect(config.telegram).toEqual({ mode: 'emulator', token: EMULATOR_BOT_TOKEN, apiRoot: 'http://127.0.0.1:8081' });
	});

	it('talks to Telegram itself once a bot token is set', () => {
		const config = parseConfig({ TELEGRAM_BOT_TOKEN: '123456:AAbbCCddEEffGGhhIIjjKKll' }, ROOT);
		expect(config.telegram).toEqual({
			mode: 'cloud',
			token: '123456:AAbbCCddEEffGGhhIIjjKKll',
			apiRoot: 'https://api.telegram.org'
		});
	});

	it.each([
		[{ PHOTO_TTL_HOURS: '0' }, 'PHOTO_TTL_HOURS must be from 1 to 72'],
		[{ PHOTO_TTL_HOURS: '73' }, 'PHOTO_TTL_HOURS must be from 1 to 72'],
		[{ PHOTO_TTL_HOURS: 'soon' }, 'PHOTO_TTL_HOURS must be a whole number from 1 to 72'],
		[{ WORKER_SLOTS: '0' }, 'WORKER_SLOTS must be from 1 to 16'],
		[{ PORT: '70000' }, 'PORT must be from 1 to 65535'],
		[{ IMAGE_PROVIDER: 'dalle' }, 'IMAGE_PROVIDER must be offline, gemini or openai'],
		[{ IMAGE_PROVIDER: 'gemini' }, 'GEMINI_API_KEY is required when IMAGE_PROVIDER=gemini'],
		[{ IMAGE_PROVIDER: 'openai' }, 'OPENAI_API_KEY is required when IMAGE_PROVIDER=openai'],
		[{ RENDER_MODE: 'collage' }, 'RENDER_MODE must be figure or composite'],
		[{ IMAGE_PROVIDER_FALLBACK: 'offline' }, 'IMAGE_PROVIDER_FALLBACK must differ from IMAGE_PROVIDER'],
		[{ IMAGE_PROVIDER_FALLBACK: 'openai' }, 'OPENAI_API_KEY is required when IMAGE_PROVIDER_FALLBACK=openai'],
		[{ TELEGRAM_BOT_TOKEN: 'not-a-token' }, 'TELEGRAM_BOT_TOKEN must look like 123456:ABC… (from @BotFather)'],
		[{ TELEGRAM_API_ROOT: 'localhost:8081' }, 'TELEGRAM_API_ROOT must be a full URL, e.g. http://127.0.0.1:8081'],
		[
			{ PUBLIC_BASE_URL: 'stickers.example.com' },
			'PUBLIC_BASE_URL must be a full URL, e.g. https://stickers.example.com'
		],
		[{ ADMIN_TELEGRAM_IDS: '123,@boss' }, 'ADMIN_TELEGRAM_IDS "@boss" is not a Telegram id (digits only)'],
		[{ LEADS_CHAT_ID: 'sales' }, 'LEADS_CHAT_ID must be a Telegram chat id (digits, may start with -)'],
		[{ LEADS_IP_SALT: 'short' }, 'LEADS_IP_SALT must be at least 16 characters'],
		[
			{ NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://s.example.com' },
			'LEADS_IP_SALT is required in production (visitor IPs are stored only as its HMAC)'
		],
		[
			{ NODE_ENV: 'production', LEADS_IP_SALT: 'x'.repeat(32) },
			'PUBLIC_BASE_URL is required in production (kiosk QR codes and links use it)'
		],
		[
			{ DATABASE_URL: 'mysql://app@db/kiosk' },
			'DATABASE_URL must be a PostgreSQL URL: postgresql://user:password@host:5432/database (or postgres://…)'
		],
		[
			{ DATABASE_URL: 'db.example.com:5432' },
			'DATABASE_URL must be a PostgreSQL URL: postgresql://user:password@host:5432/database (or postgres://…)'
		],
		[
			{ DATABASE_URL: 'postgresql://app@db/kiosk', DB_PATH: 'data/app.db' },
			'DATABASE_URL and DB_PATH are both set: DATABASE_URL runs on PostgreSQL, DB_PATH names a SQLite file — unset one'
		]
	])('refuses %o naming the variable and its rule', (env, message) => {
		expect(problemsOf(env)).toContain(message);
	});

	it('lists every problem at once, so one restart fixes them all', () => {
		expect(problemsOf({ PHOTO_TTL_HOURS: '100', WORKER_SLOTS: 'many' })).toHaveLength(2);
	});

	it('parses admin ids as bigints (Telegram ids outgrew 32 bits)', () => {
		expect(parseConfig({ ADMIN_TELEGRAM_IDS: ' 7000000001, 42 ' }, ROOT).ADMIN_TELEGRAM_IDS).toEqual([
			7000000001n,
			42n
		]);
	});

	it('runs on SQLite by default and on PostgreSQL once DATABASE_URL is set (postgresql:// or postgres://)', () => {
		expect(parseConfig({}, ROOT).database).toEqual({ engine: 'sqlite', path: '/srv/kiosk/data/app.db' });
		expect(parseConfig({ DB_PATH: 'data/x.db' }, ROOT).database).toEqual({
			engine: 'sqlite',
			path: '/srv/kiosk/data/x.db'
		});
		for (const url of ['postgresql://app:pw@db.example.com:5432/kiosk', 'postgres://app@10.0.0.5/kiosk']) {
			expect(parseConfig({ DATABASE_URL: url }, ROOT).database).toEqual({ engine: 'postgresql', url });
		}
	});

	it('keeps absolute paths as given', () => {
		expect(parseConfig({ DB_PATH: '/var/lib/kiosk/app.db' }, ROOT).dbPath).toBe('/var/lib/kiosk/app.db');
	});

	it('resolves a relative DB_PATH from the project root whatever the current directory is', async () => {
		const printDbPath = 'tests/helpers/print-config.ts';
		const fromRoot = await runTs(printDbPath, { env: { DB_PATH: 'data/x.db' } });
		const fromTmp = await runTs(printDbPath, { env: { DB_PATH: 'data/x.db' }, cwd: '/tmp' });
		const fromSrc = await runTs(printDbPath, {
			env: { DB_PATH: 'data/x.db' },
			cwd: path.resolve(import.meta.dirname, '..')
		});
		expect(fromRoot.stdout.trim()).toBe(path.resolve(import.meta.dirname, '../../../../data/x.db'));
		expect(fromTmp.stdout.trim()).toBe(fromRoot.stdout.trim());
		expect(fromSrc.stdout.trim()).toBe(fromRoot.stdout.trim());
	});

	it('stops the worker at start-up with the variable and its rule', async () => {
		const result = await runTs('src/worker/main.ts', { env: { PHOTO_TTL_HOURS: '100' } });
		expect(result.code).toBe(1);
		expect(result.stderr).toContain(
			'worker refuses to start: Invalid configuration:\n  - PHOTO_TTL_HOURS must be from 1 to 72'
		);
	});
});
