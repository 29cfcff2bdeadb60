import { z } from 'zod';

/** Comma-separated Telegram ids, e.g. "123,456". */
const telegramIdList = z
	.string()
	.default('')
	.transform((raw, ctx) => {
		const parts = raw.split(',').map((s) => s.trim()).filter(Boolean);
		const bad = parts.find((p) => !/^-?\d{1,20}$/.test(p));
		if (bad) ctx.addIssue({ code: 'custom', message: `"${bad}" is not a Telegram id (digits only)` });
		return parts.map((p) => BigInt(p));
	});

const optionalString = z
	.string()
	.optional()
	.transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

const url = (hint: string) => z.url({ message: `must be a full URL, ${hint}` });

const intIn = (min: number, max: number, fallback: number) =>
	z.coerce
		.number({ message: `must be a whole number from ${min} to ${max}` })
		.int({ message: `must be a whole number from ${min} to ${max}` })
		.min(min, { message: `must be from ${min} to ${max}` })
		.max(max, { message: `must be from ${min} to ${max}` })
		.default(fallback);

/**
 * Every setting of both processes, with its rule and default. The defaults run the whole product
 * on a laptop with nothing configured: SQLite under ./data, the offline image provider and the
 * Telegram emulator. docs/configuration.md lists the same table for people.
 */
export const envSchema = z
	.object({
		NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
		LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
		DB_PATH: z.string().min(1).default('data/app.db'),
		DATA_DIR: z.string().min(1).default('data'),
		PORT: intIn(1, 65535, 3000),
		HOST: z.string().min(1).default('127.0.0.1'),
		PUBLIC_BASE_URL: optionalString.pipe(url('e.g. https://stickers.example.com').optional()),
		TELEGRAM_BOT_TOKEN: optionalString.pipe(
			z.string().regex(/^\d+:[\w-]{20,}$/, { message: 'must look like 123456:ABC… (from @BotFather)' }).optional()
		),
		TELEGRAM_API_ROOT: optionalString.pipe(url('e.g. http://127.0.0.1:8081').optional()),
		EMULATOR_PORT: intIn(1, 65535, 8081),
		ADMIN_TELEGRAM_IDS: telegramIdList,
		LEADS_CHAT_ID: optionalString.pipe(
			z.string().regex(/^-?\d{1,20}$/, { message: 'must be a Telegram chat id (digits, may start with -)' }).optional()
		),
		LEADS_IP_SALT: optionalString.pipe(z.string().min(16, { message: 'must be at least 16 characters' }).optional()),
		IMAGE_PROVIDER: z.enum(['offline', 'gemini', 'openai'], { message: 'must be offline, gemini or openai' }).default('offline'),
		GEMINI_API_KEY: optionalString,
		GEMINI_BASE_URL: optionalString.pipe(url('e.g. http://127.0.0.1:8082').optional()),
		OPENAI_API_KEY: optionalString,
		PHOTO_TTL_HOURS: intIn(1, 72, 72),
		WORKER_SLOTS: intIn(1, 16, 2)
	})
	.superRefine((env, ctx) => {
		const need = (key: keyof typeof env, when: string) =>
			ctx.addIssue({ code: 'custom', path: [key], message: `is required ${when}` });
		if (env.IMAGE_PROVIDER === 'gemini' && !env.GEMINI_API_KEY) need('GEMINI_API_KEY', 'when IMAGE_PROVIDER=gemini');
		if (env.IMAGE_PROVIDER === 'openai' && !env.OPENAI_API_KEY) need('OPENAI_API_KEY', 'when IMAGE_PROVIDER=openai');
		if (env.NODE_ENV === 'production') {
			if (!env.LEADS_IP_SALT) need('LEADS_IP_SALT', 'in production (visitor IPs are stored only as its HMAC)');
			if (!env.PUBLIC_BASE_URL) need('PUBLIC_BASE_URL', 'in production (kiosk QR codes and links use it)');
		}
	});

export type Env = z.infer<typeof envSchema>;
