import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { envSchema, type Env } from './env.schema.ts';
import { findProjectRoot } from './project-root.ts';

/** Telegram's own endpoint; the emulator replaces it when no bot token is configured. */
export const TELEGRAM_CLOUD_API_ROOT = 'https://api.telegram.org';
/** The token the emulator accepts in demo mode (no real bot behind it). */
export const EMULATOR_BOT_TOKEN = '1000000001:emulator-demo-token-not-a-secret';

export type TelegramMode = 'cloud' | 'emulator';

/** Where the data lives: the embedded SQLite file (the default) or a PostgreSQL server. */
export type DatabaseTarget = { engine: 'sqlite'; path: string } | { engine: 'postgresql'; url: string };

/** The SQLite file when neither DB_PATH nor DATABASE_URL is set. */
const DEFAULT_DB_PATH = 'data/app.db';

export interface Config extends Env {
	projectRoot: string;
	database: DatabaseTarget;
	/** Absolute paths, whatever the cwd was. dbPath is the SQLite file (DB_PATH or its default). */
	dbPath: string;
	dataDir: string;
	publicBaseUrl: string;
	/**
	 * `tokenInForce`: set by the worker only — the token replaced on the console (Settings) while it
	 * runs; the Telegram clients built from this config read it at each call (telegram/bot-token.ts).
	 */
	telegram: { mode: TelegramMode; token: string; apiRoot: string; tokenInForce?: { readonly value: string } };
}

export class ConfigError extends Error {
	constructor(readonly problems: string[]) {
		super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
		this.name = 'ConfigError';
	}
}

/** Parses an environment (pure: tests pass plain objects). Throws ConfigError naming each variable. */
export function parseConfig(raw: Record<string, string | undefined>, projectRoot = findProjectRoot()): Config {
	const parsed = envSchema.safeParse(raw);
	if (!parsed.success) throw new ConfigError(describeIssues(parsed.error));
	const env = parsed.data;
	const resolve = (p: string) => (path.isAbsolute(p) ? p : path.resolve(projectRoot, p));
	const emulator = !env.TELEGRAM_BOT_TOKEN;
	const dbPath = resolve(env.DB_PATH ?? DEFAULT_DB_PATH);
	return {
		...env,
		projectRoot,
		database: env.DATABASE_URL ? { engine: 'postgresql', url: env.DATABASE_URL } : { engine: 'sqlite', path: dbPath },
		dbPath,
		dataDir: resolve(env.DATA_DIR),
		publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
		telegram: {
			mode: emulator ? 'emulator' : 'cloud',
			token: env.TELEGRAM_BOT_TOKEN ?? EMULATOR_BOT_TOKEN,
			apiRoot: (
				env.TELEGRAM_API_ROOT ?? (emulator ? `http://127.0.0.1:${env.EMULATOR_PORT}` : TELEGRAM_CLOUD_API_ROOT)
			).replace(/\/$/, '')
		}
	};
}

function describeIssues(error: z.ZodError): string[] {
	return error.issues.map((issue) => {
		const name = issue.path.join('.') || '(environment)';
		return `${name} ${issue.message}`;
	});
}

let current: Config | undefined;

/**
 * The configuration of this process, parsed once. In development a `.env` file at the project root
 * is read first; variables already set in the environment win.
 */
export function getConfig(): Config {
	if (current) return current;
	const root = findProjectRoot();
	const envFile = path.join(root, '.env');
	if (process.env.NODE_ENV !== 'production' && existsSync(envFile)) process.loadEnvFile(envFile);
	current = parseConfig(process.env, root);
	return current;
}
