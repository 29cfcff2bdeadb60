import { z } from 'zod';

/** Comma-separated Telegram ids, e.g. "123,456". */
const telegramIdList = z
	.string()
	.default('')
	.transform((raw, ctx) => {
		const parts = raw
			.split(',')
			.map((s) => s.trim())
			.filter(Boolean);
		const bad = parts.find((p) => !/^-?\d{1,20}$/.test(p));
		if (bad) {
			ctx.addIssue({ code: 'custom', message: `"${bad}" is not a Telegram id (digits only)` });
			return z.NEVER;
		}
		return parts.map((p) => BigInt(p));
	});

const optionalString = z
	.string()
	.optional()
	.transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

const optionalPrice = optionalString
	.transform((v) => (v === undefined ? undefined : Number(v)))
	.pipe(z.number({ message: 'must be a price in USD' }).min(0, { message: 'must be a price in USD' }).optional());

const url = (hint: string) => z.url({ protocol: /^https?$/, message: `must be a full URL, ${hint}` });

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
		// The database: a SQLite file (DB_PATH, default data/app.db) or a PostgreSQL server (DATABASE_URL).
		DB_PATH: optionalString,
		DATABASE_URL: optionalString.pipe(
			z
				.url({
					protocol: /^postgres(ql)?$/,
					message: 'must be a PostgreSQL URL: postgresql://user:password@host:5432/database (or postgres://…)'
				})
				.optional()
		),
		DATA_DIR: z.string().min(1).default('data'),
		PORT: intIn(1, 65535, 3000),
		HOST: z.string().min(1).default('127.0.0.1'),
		PUBLIC_BASE_URL: optionalString.pipe(url('e.g. https://stickers.example.com').optional()),
		TELEGRAM_BOT_TOKEN: optionalString.pipe(
			z
				.string()
				.regex(/^\d+:[\w-]{20,}$/, { message: 'must look like 123456:ABC… (from @BotFather)' })
				.optional()
		),
		TELEGRAM_API_ROOT: optionalString.pipe(url('e.g. http://127.0.0.1:8081').optional()),
		// The demo on purpose: no bot token, the local emulator stands in for Telegram (docs/configuration.md).
		DEMO_MODE: optionalString
			.pipe(z.enum(['0', '1'], { message: 'must be 0 or 1' }).optional())
			.transform((v) => v === '1'),
		EMULATOR_PORT: intIn(1, 65535, 8081),
		ADMIN_TELEGRAM_IDS: telegramIdList,
		LEADS_CHAT_ID: optionalString.pipe(
			z
				.string()
				.regex(/^-?\d{1,20}$/, { message: 'must be a Telegram chat id (digits, may start with -)' })
				.optional()
		),
		LEADS_IP_SALT: optionalString.pipe(z.string().min(16, { message: 'must be at least 16 characters' }).optional()),
		LEADS_GROUP_LOCALE: z.enum(['ru', 'uz', 'en'], { message: 'must be ru, uz or en' }).default('ru'),
		// The bot's language for a guest whose Telegram language is none of ours (console Settings may change it).
		DEFAULT_LANGUAGE: z.enum(['ru', 'uz', 'en'], { message: 'must be ru, uz or en' }).default('en'),
		// Packs one guest may make, before extra packs granted on the console (console Settings may change it).
		PACKS_PER_GUEST: intIn(1, 100, 1),
		IMAGE_PROVIDER: z
			.enum(['offline', 'gemini', 'openai'], { message: 'must be offline, gemini or openai' })
			.default('offline'),
		IMAGE_PROVIDER_FALLBACK: optionalString.pipe(
			z.enum(['offline', 'gemini', 'openai'], { message: 'must be offline, gemini or openai' }).optional()
		),
		GEMINI_API_KEY: optionalString,
		GEMINI_BASE_URL: optionalString.pipe(url('e.g. http://127.0.0.1:8082').optional()),
		OPENAI_API_KEY: optionalString,
		PHOTO_TTL_HOURS: intIn(1, 72, 72),
		WORKER_SLOTS: intIn(1, 16, 2),
		// Telegram updates of different chats the bot handles at once (docs/scale-out.md); one chat's go in order.
		BOT_UPDATE_CONCURRENCY: intIn(1, 100, 16),
		// Data lifecycle (docs/data-lifecycle.md): guest rows kept this long after the last activity; backups.
		GUEST_RETENTION_DAYS: intIn(1, 3650, 90),
		BACKUP_DIR: optionalString,
		// The guest flow at the kiosk (docs/kiosk.md): staff PIN for a reset, and the session clocks.
		KIOSK_STAFF_PIN: optionalString.pipe(
			z
				.string()
				.regex(/^\d{4,12}$/, { message: 'must be 4 to 12 digits' })
				.optional()
		),
		KIOSK_QR_TIMEOUT_SECONDS: intIn(30, 3600, 120),
		KIOSK_IDLE_TIMEOUT_SECONDS: intIn(30, 3600, 180),
		// Generation (docs/generation.md): queue, deadlines, providers, prices, quota warning.
		JOB_MAX_ATTEMPTS: intIn(1, 10, 3),
		JOB_LEASE_SECONDS: intIn(2, 600, 30),
		JOB_POLL_MS: intIn(50, 5000, 300),
		JOB_BACKOFF_BASE_SECONDS: intIn(0, 600, 5),
		JOB_BACKOFF_CAP_SECONDS: intIn(0, 3600, 120),
		JOB_DELAY_NOTICE_MINUTES: intIn(1, 120, 5),
		JOB_HARD_DEADLINE_MINUTES: intIn(2, 240, 20),
		// Broadcasts (docs/console.md "Broadcasts"): a claimed recipient row is left alone this long.
		BROADCAST_LEASE_SECONDS: intIn(2, 600, 120),
		ART_STYLE: z
			.enum(['cartoon', 'comic', 'pop', 'pastel'], { message: 'must be cartoon, comic, pop or pastel' })
			.default('cartoon'),
		RENDER_MODE: z.enum(['figure', 'composite'], { message: 'must be figure or composite' }).default('figure'),
		GEMINI_IMAGE_MODEL: z.string().min(1).default('gemini-3.1-flash-image'),
		GEMINI_VISION_MODEL: z.string().min(1).default('gemini-3.8-flash'),
		GEMINI_TIMEOUT_SECONDS: intIn(5, 600, 120),
		// Unset: the list price of the model that answered (spend/gemini-list-prices.ts).
		GEMINI_PRICE_INPUT_PER_MTOK: optionalPrice,
		GEMINI_PRICE_OUTPUT_TEXT_PER_MTOK: optionalPrice,
		GEMINI_PRICE_OUTPUT_IMAGE_PER_MTOK: optionalPrice,
		GEMINI_VISION_PRICE_INPUT_PER_MTOK: optionalPrice,
		GEMINI_VISION_PRICE_OUTPUT_PER_MTOK: optionalPrice,
		OPENAI_BASE_URL: optionalString.pipe(url('e.g. https://api.openai.com/v1').optional()),
		OPENAI_IMAGE_MODEL: z.string().min(1).default('gpt-image-1'),
		OPENAI_PRICE_INPUT_PER_MTOK: z.coerce.number({ message: 'must be a price in USD' }).min(0).default(10),
		OPENAI_PRICE_OUTPUT_IMAGE_PER_MTOK: z.coerce.number({ message: 'must be a price in USD' }).min(0).default(40),
		PROVIDER_RETRY_BASE_MS: intIn(0, 60_000, 2000),
		RPD_WARN_THRESHOLD: intIn(1, 1_000_000, 500),
		// Operator console (docs/console.md): the image model's requests-per-day quota, 0 = not known.
		IMAGE_RPD_QUOTA: intIn(0, 10_000_000, 0),
		// Guest files (docs/scale-out.md "Object storage"): DATA_DIR, or one S3-compatible bucket.
		FILE_STORE: z.enum(['local', 's3'], { message: 'must be local or s3' }).default('local'),
		FILE_STORE_S3_BUCKET: optionalString,
		FILE_STORE_S3_REGION: optionalString,
		FILE_STORE_S3_ENDPOINT: optionalString.pipe(
			url('e.g. https://<account>.r2.cloudflarestorage.com or http://127.0.0.1:9000').optional()
		),
		FILE_STORE_S3_FORCE_PATH_STYLE: optionalString.pipe(z.enum(['0', '1'], { message: 'must be 0 or 1' }).optional()),
		FILE_STORE_S3_ACCESS_KEY_ID: optionalString,
		FILE_STORE_S3_SECRET_ACCESS_KEY: optionalString,
		AWS_ACCESS_KEY_ID: optionalString,
		AWS_SECRET_ACCESS_KEY: optionalString,
		AWS_SESSION_TOKEN: optionalString,
		AWS_REGION: optionalString,
		// Encrypts the secrets set on the console's Settings page (64 hex digits = 32 bytes); unset: a
		// key generated into DATA_DIR's first-run secrets on first use (docs/configuration.md).
		SETTINGS_SECRET_KEY: optionalString.pipe(
			z
				.string()
				.regex(/^[0-9a-fA-F]{64}$/, { message: 'must be 64 hex digits (32 bytes): openssl rand -hex 32' })
				.optional()
		)
	})
	.superRefine((env, ctx) => {
		const need = (key: keyof typeof env, when: string) =>
			ctx.addIssue({ code: 'custom', path: [key], message: `is required ${when}` });
		if (env.IMAGE_PROVIDER === 'gemini' && !env.GEMINI_API_KEY) need('GEMINI_API_KEY', 'when IMAGE_PROVIDER=gemini');
		if (env.IMAGE_PROVIDER === 'openai' && !env.OPENAI_API_KEY) need('OPENAI_API_KEY', 'when IMAGE_PROVIDER=openai');
		if (env.IMAGE_PROVIDER_FALLBACK === env.IMAGE_PROVIDER)
			ctx.addIssue({ code: 'custom', path: ['IMAGE_PROVIDER_FALLBACK'], message: 'must differ from IMAGE_PROVIDER' });
		if (env.IMAGE_PROVIDER_FALLBACK === 'gemini' && !env.GEMINI_API_KEY)
			need('GEMINI_API_KEY', 'when IMAGE_PROVIDER_FALLBACK=gemini');
		if (env.IMAGE_PROVIDER_FALLBACK === 'openai' && !env.OPENAI_API_KEY)
			need('OPENAI_API_KEY', 'when IMAGE_PROVIDER_FALLBACK=openai');
		if (env.DATABASE_URL && env.DB_PATH) {
			ctx.addIssue({
				code: 'custom',
				path: ['DATABASE_URL'],
				message: 'and DB_PATH are both set: DATABASE_URL runs on PostgreSQL, DB_PATH names a SQLite file — unset one'
			});
		}
		if (env.DEMO_MODE && env.TELEGRAM_BOT_TOKEN)
			ctx.addIssue({
				code: 'custom',
				path: ['DEMO_MODE'],
				message: 'must not be 1 while TELEGRAM_BOT_TOKEN is set (the demo has no real bot)'
			});
		if (env.FILE_STORE === 's3') {
			if (!env.FILE_STORE_S3_BUCKET) need('FILE_STORE_S3_BUCKET', 'when FILE_STORE=s3');
			const ownKeys = [env.FILE_STORE_S3_ACCESS_KEY_ID, env.FILE_STORE_S3_SECRET_ACCESS_KEY].filter(Boolean).length;
			if (ownKeys === 1)
				need(
					env.FILE_STORE_S3_ACCESS_KEY_ID ? 'FILE_STORE_S3_SECRET_ACCESS_KEY' : 'FILE_STORE_S3_ACCESS_KEY_ID',
					'with the other of the pair'
				);
			if (ownKeys === 0 && !(env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY))
				need(
					'FILE_STORE_S3_ACCESS_KEY_ID',
					'when FILE_STORE=s3 (with FILE_STORE_S3_SECRET_ACCESS_KEY, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)'
				);
		}
		if (env.NODE_ENV === 'production') {
			// Without a token the bot talks plain HTTP to a local emulator with a public token: anyone on
			// this machine could pose as Telegram. Only an explicit DEMO_MODE=1 may run it like that.
			if (!env.TELEGRAM_BOT_TOKEN && !env.DEMO_MODE)
				need(
					'TELEGRAM_BOT_TOKEN',
					'in production (without it the bot would talk to a local emulator anyone on this machine could run); set DEMO_MODE=1 to run the demo on purpose'
				);
			if (!env.LEADS_IP_SALT) need('LEADS_IP_SALT', 'in production (visitor IPs are stored only as its HMAC)');
			if (!env.PUBLIC_BASE_URL) need('PUBLIC_BASE_URL', 'in production (kiosk QR codes and links use it)');
		}
	});

export type Env = z.infer<typeof envSchema>;
