import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EMULATOR_BOT_TOKEN } from '../src/lib/server/config/config.ts';
import { openPostgresDatabase, type Db } from '../src/lib/server/db/client.ts';
import { createFakeGemini, type FakeGemini } from '../tools/fake-gemini/server.ts';
import { createTelegramEmulator, type TelegramEmulator } from '../tools/telegram-emulator/server.ts';
import {
	createDatabase,
	createMigratedTemplate,
	dropDatabase,
	startPgCluster,
	type PgCluster
} from '../tests/helpers/pg-cluster.ts';
import { seedPackGuest } from '../tests/helpers/send-budget-load.ts';
import { bucketStore, startS3Server, type S3TestServer } from '../tests/helpers/start-s3-server.ts';
import { makeFaceCrop, makeSelfie } from '../tests/integration/generation-selfie.ts';

/**
 * The scale-out set-up for a benchmark: a throwaway PostgreSQL server (its migrated template, a
 * fresh database per run), an S3-compatible bucket, the fake Gemini at a fixed latency per call and
 * the Telegram emulator — all real servers. `seedJobs` queues jobs as a kiosk upload does (selfie
 * and face crop in the bucket, the jobs row and its "Generating…" notice in one transaction).
 */
export interface Fleet {
	pg: PgCluster;
	s3: S3TestServer;
	gemini: FakeGemini;
	emulator: TelegramEmulator;
	/** A fresh migrated database (a copy of the template): its URL and a client on it. */
	database(): Promise<{ url: string; db: Db }>;
	/** What every worker process of this fleet gets, besides its own DATA_DIR and DATABASE_URL. */
	workerEnv: Record<string, string>;
	seedJobs(db: Db, count: number): Promise<number[]>;
	close(): Promise<void>;
}

export const GEMINI_MODELS = ['gemini-3.1-flash-image', 'gemini-3.8-flash'];
const GEMINI_KEY = 'bench-key';

export async function startFleet(options: { geminiLatencyMs: number; workerSlots: number }): Promise<Fleet> {
	const pg = await startPgCluster();
	await createMigratedTemplate(pg.url);
	const s3 = await startS3Server('bench-fleet');
	const gemini = await createFakeGemini({
		apiKey: GEMINI_KEY,
		models: GEMINI_MODELS,
		latencyMs: options.geminiLatencyMs
	});
	const emulator = await createTelegramEmulator({ botToken: EMULATOR_BOT_TOKEN });
	const files = bucketStore(s3);
	const fixtures = await makeSelfie().then(async (selfie) => ({ selfie, faceCrop: await makeFaceCrop(selfie) }));
	const databases: { url: string; db: Db }[] = [];
	let seeded = 0;
	return {
		pg,
		s3,
		gemini,
		emulator,
		async database() {
			const url = await createDatabase(pg.url, 'template');
			const opened = { url, db: openPostgresDatabase(url) };
			databases.push(opened);
			return opened;
		},
		workerEnv: {
			NODE_ENV: 'test',
			LOG_LEVEL: 'info',
			TELEGRAM_API_ROOT: emulator.url,
			IMAGE_PROVIDER: 'gemini',
			GEMINI_API_KEY: GEMINI_KEY,
			GEMINI_BASE_URL: gemini.url,
			WORKER_SLOTS: String(options.workerSlots),
			...s3.env,
			// The bucket's own key pair, never a developer's AWS credentials from the environment.
			AWS_ACCESS_KEY_ID: '',
			AWS_SECRET_ACCESS_KEY: ''
		},
		async seedJobs(db, count) {
			const jobIds: number[] = [];
			for (let i = 0; i < count; i++) jobIds.push((await seedPackGuest(db, emulator, files, fixtures, ++seeded)).jobId);
			return jobIds;
		},
		async close() {
			for (const { db, url } of databases) {
				await db.$disconnect();
				await dropDatabase(url);
			}
			await emulator.close();
			await gemini.close();
			await s3.close();
			await pg.stop();
		}
	};
}

/** A data folder of its own for each worker process (the instance lock, local scratch). */
export function workerDataDir(): { dir: string; remove(): void } {
	const dir = mkdtempSync(path.join(tmpdir(), 'bench-worker-'));
	return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
