import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Api } from 'grammy';
import { EMULATOR_BOT_TOKEN, parseConfig, type Config } from '../../src/lib/server/config/config.ts';
import { openDatabase, type Db } from '../../src/lib/server/db/client.ts';
import { migrateSafely } from '../../src/lib/server/db/migrations/safe-migrate.ts';
import { applyTelegramRetryPolicy } from '../../src/lib/server/telegram/retry-policy.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { createTelegramEmulator, type TelegramEmulator } from '../../tools/telegram-emulator/server.ts';
import { PROJECT_ROOT } from '../helpers/node-process.ts';
import { makeFaceCrop, makeSelfie } from './generation-selfie.ts';

/**
 * A real SQLite file, the Telegram emulator as a real HTTP server, a guest who started the bot,
 * and helpers to queue a job exactly as the guest flow does (selfie + face crop on disk, a jobs
 * row with status queued, the "Generating…" message in job_messages).
 */
export interface GenerationWorld {
	dir: string;
	dbPath: string;
	dataDir: string;
	db: Db;
	emulator: TelegramEmulator;
	api: Api;
	guestId: number;
	env: Record<string, string>;
	config(extra?: Record<string, string>): Config;
	queueJob(options?: { createdAt?: Date; templateId?: string; guestId?: number }): Promise<number>;
	close(): Promise<void>;
}

let selfieCache: Promise<{ selfie: Buffer; faceCrop: Buffer }> | undefined;
function fixtures(): Promise<{ selfie: Buffer; faceCrop: Buffer }> {
	selfieCache ??= makeSelfie().then(async (selfie) => ({ selfie, faceCrop: await makeFaceCrop(selfie) }));
	return selfieCache;
}

export async function createGenerationWorld(dir: string, emulatorOptions: { port?: number } = {}): Promise<GenerationWorld> {
	const dbPath = path.join(dir, 'app.db');
	const dataDir = path.join(dir, 'data');
	mkdirSync(dataDir, { recursive: true });
	await migrateSafely({ dbPath, migrationsDir: path.join(PROJECT_ROOT, 'prisma', 'migrations'), clock: systemClock });
	const db = openDatabase(dbPath);
	const emulator = await createTelegramEmulator({ botToken: EMULATOR_BOT_TOKEN, port: emulatorOptions.port ?? 0 });
	const api = new Api(EMULATOR_BOT_TOKEN, { apiRoot: emulator.url });
	applyTelegramRetryPolicy(api);
	const guest = await emulator.control.createUser({ first_name: 'Dana', username: 'dana_guest', language_code: 'en' });
	await emulator.control.sendUserMessage({ user_id: guest.id, text: '/start' });
	const env = { NODE_ENV: 'test', DB_PATH: dbPath, DATA_DIR: dataDir, TELEGRAM_API_ROOT: emulator.url, LOG_LEVEL: 'silent', JOB_LEASE_SECONDS: '5', JOB_POLL_MS: '100', JOB_BACKOFF_BASE_SECONDS: '0', PROVIDER_RETRY_BASE_MS: '20' };
	const now = new Date().toISOString();
	await db.user.create({ data: { telegramUserId: BigInt(guest.id), firstName: 'Dana', username: 'dana_guest', consentedAt: now, createdAt: now } });
	let sessions = 0;
	return {
		dir,
		dbPath,
		dataDir,
		db,
		emulator,
		api,
		guestId: guest.id,
		env,
		config: (extra = {}) => parseConfig({ ...env, ...extra }, PROJECT_ROOT),
		async queueJob(options = {}) {
			const { selfie, faceCrop } = await fixtures();
			const token = `session${++sessions}${Date.now()}`;
			const sessionDir = path.join(dataDir, 'sessions', token);
			mkdirSync(sessionDir, { recursive: true });
			const photoPath = path.join(sessionDir, 'selfie_ab12cd.jpg');
			writeFileSync(photoPath, selfie);
			writeFileSync(path.join(sessionDir, 'face_crop.jpg'), faceCrop);
			const created = (options.createdAt ?? new Date()).toISOString();
			const guestId = options.guestId ?? guest.id;
			await db.session.create({ data: { sessionToken: token, telegramUserId: BigInt(guestId), templateId: options.templateId ?? 'tuxedo', status: 'photo_taken', createdAt: created, updatedAt: created } });
			const job = await db.job.create({ data: { telegramUserId: BigInt(guestId), sessionToken: token, photoPath, templateId: options.templateId ?? 'tuxedo', status: 'queued', createdAt: created, updatedAt: created } });
			const message = await api.sendMessage(guestId, '⏳ Generating…');
			await db.jobMessage.create({ data: { jobId: job.jobId, kind: 'generating', chatId: BigInt(guestId), messageId: BigInt(message.message_id), sentAt: created } });
			return job.jobId;
		},
		async close() {
			await db.$disconnect();
			await emulator.close();
		}
	};
}

/** Polls until the job is in one of `statuses` (real time: the worker runs for real). */
export async function waitForJobStatus(db: Db, jobId: number, statuses: string[], timeoutMs = 60_000): Promise<string> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const job = await db.job.findUnique({ where: { jobId }, select: { status: true, error: true } });
		if (job && statuses.includes(job.status)) return job.status;
		if (Date.now() > deadline) throw new Error(`job ${jobId} is ${job?.status} (${job?.error ?? ''}) after ${timeoutMs} ms`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}
