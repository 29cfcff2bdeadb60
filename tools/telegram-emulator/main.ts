import { existsSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { createTelegramEmulator, DEFAULTS } from './server.ts';
import { ffprobeAvailable } from './video-sticker.ts';

// `npm run emulator`: the Telegram Bot API emulator as its own process, configured from the
// environment. Paths are relative to the project root, not to wherever it was started from.

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const envSchema = z.object({
	EMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(8081),
	EMULATOR_HOST: z.string().min(1).default(DEFAULTS.host),
	/** A path, or `memory` to keep nothing between runs. */
	EMULATOR_STATE: z.string().min(1).default('data/telegram-emulator/state.json'),
	EMULATOR_BOT_USERNAME: z
		.string()
		.regex(/^[a-zA-Z][a-zA-Z0-9_]{3,31}$/)
		.default(DEFAULTS.botUsername),
	EMULATOR_BOT_TOKEN: z
		.string()
		.regex(/^\d+:[A-Za-z0-9_-]+$/)
		.optional(),
	EMULATOR_SALES_GROUP_ID: z.coerce.number().int().negative().default(DEFAULTS.salesGroupId),
	EMULATOR_ADMIN_IDS: z
		.string()
		.default('')
		.transform((list) =>
			list
				.split(',')
				.map((id) => id.trim())
				.filter(Boolean)
				.map(Number)
		)
		.refine((ids) => ids.every((id) => Number.isSafeInteger(id) && id > 0), 'comma-separated positive user ids'),
	EMULATOR_GROUP_PRIVACY: z.enum(['true', 'false']).default('true'),
	/** ffprobe (from ffmpeg) checks video stickers; without it they are refused, never waved through. */
	EMULATOR_FFPROBE: z.string().min(1).default(DEFAULTS.ffprobePath)
});

function loadDotEnv(): void {
	const path = resolve(PROJECT_ROOT, '.env');
	if (existsSync(path)) process.loadEnvFile(path);
}

function readEnv(): z.infer<typeof envSchema> {
	const parsed = envSchema.safeParse(process.env);
	if (parsed.success) return parsed.data;
	for (const issue of parsed.error.issues) console.error(`${issue.path.join('.')}: ${issue.message}`);
	process.exit(1);
}

async function main(): Promise<void> {
	loadDotEnv();
	const env = readEnv();
	const memory = env.EMULATOR_STATE === 'memory';
	const statePath = isAbsolute(env.EMULATOR_STATE) ? env.EMULATOR_STATE : resolve(PROJECT_ROOT, env.EMULATOR_STATE);
	const emulator = await createTelegramEmulator({
		port: env.EMULATOR_PORT,
		host: env.EMULATOR_HOST,
		statePath: memory ? null : statePath,
		botUsername: env.EMULATOR_BOT_USERNAME,
		botToken: env.EMULATOR_BOT_TOKEN,
		salesGroupId: env.EMULATOR_SALES_GROUP_ID,
		adminIds: env.EMULATOR_ADMIN_IDS,
		groupPrivacy: env.EMULATOR_GROUP_PRIVACY === 'true',
		ffprobePath: env.EMULATOR_FFPROBE
	});
	console.log(`Telegram emulator: ${emulator.url}/ (chat page)`);
	console.log(`  grammY apiRoot: ${emulator.url}   bot: @${env.EMULATOR_BOT_USERNAME}`);
	console.log(`  state: ${memory ? 'in memory' : statePath}`);
	if (!(await ffprobeAvailable(env.EMULATOR_FFPROBE))) {
		console.warn(
			`  video stickers: REFUSED — "${env.EMULATOR_FFPROBE}" does not run; install ffmpeg or set EMULATOR_FFPROBE`
		);
	}

	let stopping = false;
	const stop = (signal: string): void => {
		if (stopping) process.exit(1); // a second signal means "now"
		stopping = true;
		console.log(`Telegram emulator: ${signal}, stopping`);
		emulator.close().then(
			() => process.exit(0),
			(error: unknown) => {
				console.error(error);
				process.exit(1);
			}
		);
	};
	// Under `npm start` (scripts/run-all.ts) the emulator is stopped last, by SIGTERM, once the worker
	// has stopped; a terminal's Ctrl-C reaches every process of the group at once, so it waits then.
	const supervised = process.env.EMULATOR_SUPERVISED === '1';
	process.on('SIGINT', () => (supervised ? undefined : stop('SIGINT')));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

await main();
