import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Api } from 'grammy';
import { EMULATOR_BOT_TOKEN, parseConfig, type Config } from '../../src/lib/server/config/config.ts';
import type { Db } from '../../src/lib/server/db/client.ts';
import { enqueueJob } from '../../src/lib/server/jobs/job.repository.ts';
import { applyTelegramRetryPolicy } from '../../src/lib/server/telegram/retry-policy.ts';
import { createLogger } from '../../src/lib/server/log/logger.ts';
import { BotBudget } from '../../src/lib/server/telegram/bot-budget.ts';
import { ChatCooldown } from '../../src/lib/server/telegram/flood-control.ts';
import type { GuestNoticeDeps } from '../../src/lib/server/jobs/guest-notice-outbox.ts';
import { createOutboxApi } from '../../src/lib/server/telegram/outbox-api.ts';
import { type Clock } from '../../src/lib/server/time/clock.ts';
import { createTestDb } from '../helpers/create-test-db.ts';
import { createTelegramEmulator, type TelegramEmulator } from '../../tools/telegram-emulator/server.ts';
import { PROJECT_ROOT } from '../helpers/node-process.ts';
import { makeFaceCrop, makeSelfie } from './generation-selfie.ts';
import { localFileStore } from '../helpers/file-store.ts';
import { defaultOutfitSnapshot } from '../../src/lib/server/outfits/default-outfit.ts';
import type { FileStore } from '../../src/lib/server/files/file-store.ts';

// The generation world without vitest: benchmarks (bench/generation-*.ts) run it under plain Node,
// where importing vitest throws. Tests take it, with the per-test hooks, from generation-harness.ts.
/**
 * A real migrated database (SQLite, or PostgreSQL under TEST_DB_ENGINE=postgresql), the Telegram
 * emulator as a real HTTP server, a guest who started the bot, and helpers to queue a job exactly
 * as the guest flow does (selfie + face crop on disk, a jobs row with status queued, the
 * "Generating…" message in job_messages).
 */
export interface GenerationWorld {
	dir: string;
	dbPath: string;
	dataDir: string;
	/** The worker's file store on `dataDir`, what a job loop here is given. */
	fileStore: FileStore;
	db: Db;
	emulator: TelegramEmulator;
	api: Api;
	guestId: number;
	env: Record<string, string>;
	config(extra?: Record<string, string>): Config;
	/**
	 * `viaOutbox`: queued as a kiosk upload queues it (enqueueJob, which queues the "Generating…"
	 * notice in guest_notices for the worker to send); otherwise the notice is sent here and recorded.
	 * `stillPack`: queued by a kiosk of an event whose stickers do not move (animated_stickers 0), for
	 * tests about the queue rather than the stickers: no clips to draw and encode with ffmpeg.
	 */
	queueJob(options?: {
		createdAt?: Date;
		templateId?: string;
		guestId?: number;
		viaOutbox?: boolean;
		stillPack?: boolean;
	}): Promise<number>;
	close(): Promise<void>;
}

let selfieCache: Promise<{ selfie: Buffer; faceCrop: Buffer }> | undefined;
function fixtures(): Promise<{ selfie: Buffer; faceCrop: Buffer }> {
	selfieCache ??= makeSelfie().then(async (selfie) => ({ selfie, faceCrop: await makeFaceCrop(selfie) }));
	return selfieCache;
}

/** `stillPacks`: every job queued here is a `stillPack` unless its own call says otherwise. */
export async function createGenerationWorld(
	dir: string,
	worldOptions: { port?: number; stillPacks?: boolean } = {}
): Promise<GenerationWorld> {
	const dataDir = path.join(dir, 'data');
	mkdirSync(dataDir, { recursive: true });
	const { db, dbPath, dbEnv } = await createTestDb(dir);
	const emulator = await createTelegramEmulator({ botToken: EMULATOR_BOT_TOKEN, port: worldOptions.port ?? 0 });
	const api = new Api(EMULATOR_BOT_TOKEN, { apiRoot: emulator.url });
	applyTelegramRetryPolicy(api);
	const guest = await emulator.control.createUser({ first_name: 'Dana', username: 'dana_guest', language_code: 'en' });
	await emulator.control.sendUserMessage({ user_id: guest.id, text: '/start' });
	const env = {
		NODE_ENV: 'test',
		...dbEnv,
		DATA_DIR: dataDir,
		TELEGRAM_API_ROOT: emulator.url,
		LOG_LEVEL: 'silent',
		JOB_LEASE_SECONDS: '5',
		JOB_POLL_MS: '100',
		JOB_BACKOFF_BASE_SECONDS: '0',
		PROVIDER_RETRY_BASE_MS: '20'
	};
	const now = new Date().toISOString();
	await db.user.create({
		data: {
			telegramUserId: BigInt(guest.id),
			firstName: 'Dana',
			username: 'dana_guest',
			consentedAt: now,
			createdAt: now
		}
	});
	let sessions = 0;
	return {
		dir,
		dbPath,
		dataDir,
		fileStore: localFileStore(dataDir),
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
			await db.session.create({
				data: {
					sessionToken: token,
					telegramUserId: BigInt(guestId),
					templateId: options.templateId ?? 'tuxedo',
					status: 'photo_taken',
					createdAt: created,
					updatedAt: created
				}
			});
			const fields = {
				telegramUserId: BigInt(guestId),
				sessionToken: token,
				photoPath,
				templateId: options.templateId ?? 'tuxedo'
			};
			const still = options.stillPack ?? worldOptions.stillPacks ?? false;
			if (options.viaOutbox) {
				const jobId = await db.$transaction((tx) => enqueueJob(tx, { ...fields, now: created }));
				if (still) await snapshotStillPack(db, jobId, fields.templateId, created);
				return jobId;
			}
			const job = await db.job.create({
				data: { ...fields, status: 'queued', createdAt: created, updatedAt: created }
			});
			if (still) await snapshotStillPack(db, job.jobId, fields.templateId, created);
			const message = await api.sendMessage(guestId, '⏳ Generating…');
			await db.jobMessage.create({
				data: {
					jobId: job.jobId,
					kind: 'generating',
					chatId: BigInt(guestId),
					messageId: BigInt(message.message_id),
					sentAt: created
				}
			});
			return job.jobId;
		},
		async close() {
			await db.$disconnect();
			await emulator.close();
		}
	};
}

const STILL_EVENT = 'Still stickers';

/**
 * The job's snapshot of an event of its own with no moving stickers (its outfit, captions and title
 * template are what a job without an event gets), as a kiosk of that event would have queued it.
 * Its name is in the news question after the pack ("news from Still stickers", not "from us").
 */
async function snapshotStillPack(db: Db, jobId: number, templateId: string, now: string): Promise<void> {
	const event =
		(await db.event.findFirst({ where: { name: STILL_EVENT } })) ??
		(await db.event.create({
			data: {
				name: STILL_EVENT,
				state: 'live',
				titleTemplate: '{pack_title}',
				animatedStickers: 0,
				createdAt: now,
				updatedAt: now
			}
		}));
	await db.jobSnapshot.create({
		data: {
			jobId,
			eventId: event.id,
			catalogueVersion: 1,
			outfitJson: JSON.stringify(defaultOutfitSnapshot(templateId)),
			createdAt: now
		}
	});
}

/** Polls until the job is in one of `statuses` (real time: the worker runs for real). */
export async function waitForJobStatus(db: Db, jobId: number, statuses: string[], timeoutMs = 60_000): Promise<string> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const job = await db.job.findUnique({ where: { jobId }, select: { status: true, error: true } });
		if (job && statuses.includes(job.status)) return job.status;
		if (Date.now() > deadline)
			throw new Error(`job ${jobId} is ${job?.status} (${job?.error ?? ''}) after ${timeoutMs} ms`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

/** The guest notices outbox as the worker runs it: the emulator through a client without auto-retry. */
export function noticeDepsFor(
	world: GenerationWorld,
	clock: Clock,
	options: { timeoutSeconds?: number; leaseMs?: number } = {}
): GuestNoticeDeps {
	return {
		db: world.db,
		clock,
		logger: createLogger('test', 'silent'),
		api: createOutboxApi({ token: EMULATOR_BOT_TOKEN, apiRoot: world.emulator.url }, options.timeoutSeconds ?? 10),
		cooldown: new ChatCooldown(),
		budget: new BotBudget(world.db, clock, 'test'),
		slots: 1,
		leaseMs: options.leaseMs ?? 30_000,
		random: () => 0.5
	};
}

/** The bot's texts in a guest's chat, once one matches `pattern` (real time: notices follow the job change). */
export async function waitForBotText(
	world: GenerationWorld,
	guestId: number,
	pattern: RegExp,
	timeoutMs = 15_000
): Promise<string[]> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const said = (await world.emulator.control.chatMessages(guestId))
			.filter((m) => m.from_bot)
			.map((m) => m.text ?? '');
		if (said.some((text) => pattern.test(text)) || Date.now() > deadline) return said;
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}
