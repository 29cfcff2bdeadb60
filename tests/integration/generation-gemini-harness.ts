import { readFileSync } from 'node:fs';
import { afterEach } from 'vitest';
import type { JobLoop } from '../../src/worker/queue/job-loop.ts';
import { createJobLoop } from '../../src/worker/queue/start-queue.ts';
import type { FaultInput } from '../../tools/fake-gemini/faults.ts';
import { createFakeGemini, type FakeGemini } from '../../tools/fake-gemini/server.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { createGenerationWorld, waitForJobStatus, type GenerationWorld } from './generation-harness.ts';
import { jobLoopInput } from '../helpers/job-loop-input.ts';

/**
 * One guest's job through the gemini provider (the real @google/genai client) and the real job
 * loop, against tools/fake-gemini with the faults a test arms; an admin who started the bot hears
 * the operator alerts. Registers its own cleanup.
 */
// gemini-3.5-flash: deprecated, still answered — by gemini-3.8-flash (the fake's redirect).
export const GEMINI_MODELS = ['gemini-3.1-flash-image', 'gemini-3.8-flash', 'gemini-3.5-flash'];

export interface GeminiRun {
	world: GenerationWorld;
	gemini: FakeGemini;
	adminId: number;
	jobId: number;
	finalStatus(jobId?: number): Promise<string>;
	usage(jobId?: number): ReturnType<GenerationWorld['db']['apiUsage']['findMany']>;
	debugJson<T>(jobId: number, name: string): T;
	adminMessages(): Promise<string[]>;
}

/** `prepare` runs after the job is queued and before the loop starts (to add its snapshot, say). */
type Prepare = (world: GenerationWorld, jobId: number) => Promise<void>;

/**
 * `stillPacks`: the jobs are still packs (generation-harness.ts `stillPack`), for files about the
 * provider's calls and answers rather than the moving stickers made after them.
 */
export function useGeminiRuns(
	prefix: string,
	options: { stillPacks?: boolean } = {}
): (faults?: FaultInput[], env?: Record<string, string>, prepare?: Prepare) => Promise<GeminiRun> {
	const tempDir = useTempDir(prefix);
	let loop: JobLoop | undefined;
	let world: GenerationWorld | undefined;
	let gemini: FakeGemini | undefined;
	afterEach(async () => {
		await loop?.stop(1000);
		loop = undefined;
		await world?.close();
		await gemini?.close();
	});
	return async (faults = [], env = {}, prepare) => {
		world = await createGenerationWorld(tempDir(), { stillPacks: options.stillPacks });
		gemini = await createFakeGemini({ apiKey: 'test-key', models: GEMINI_MODELS });
		for (const fault of faults) gemini.control.inject(fault);
		const admin = await world.emulator.control.createUser({ first_name: 'Admin' });
		await world.emulator.control.sendUserMessage({ user_id: admin.id, text: '/start' });
		const jobId = await world.queueJob();
		await prepare?.(world, jobId);
		const config = world.config({
			IMAGE_PROVIDER: 'gemini',
			GEMINI_API_KEY: 'test-key',
			GEMINI_BASE_URL: gemini.url,
			ADMIN_TELEGRAM_IDS: String(admin.id),
			...env
		});
		loop = await createJobLoop(jobLoopInput(world, config));
		loop.start();
		return runOf(world, gemini, admin.id, jobId);
	};
}

function runOf(world: GenerationWorld, gemini: FakeGemini, adminId: number, jobId: number): GeminiRun {
	return {
		world,
		gemini,
		adminId,
		jobId,
		async finalStatus(id = jobId) {
			const status = await waitForJobStatus(world.db, id, ['done', 'failed'], 90_000);
			return status === 'done'
				? status
				: `${status}: ${(await world.db.job.findUniqueOrThrow({ where: { jobId: id } })).error ?? ''}`;
		},
		usage: (id = jobId) => world.db.apiUsage.findMany({ where: { jobId: id }, orderBy: { id: 'asc' } }),
		debugJson: <T>(id: number, name: string) =>
			JSON.parse(readFileSync(`${world.dataDir}/debug_sheets/job${id}_${name}`, 'utf8')) as T,
		adminMessages: async () =>
			(await world.emulator.control.chatMessages(adminId)).filter((m) => m.from_bot).map((m) => m.text ?? '')
	};
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error('condition not reached in time');
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}
