import { DEFAULT_SHEET_KEY } from '../src/lib/server/media/sheet-key.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getFaceDetector } from '../src/lib/server/media/face-detector.ts';
import { createOfflineProvider } from '../src/lib/server/providers/offline/offline.provider.ts';
import { cutSheet } from '../src/lib/server/media/sticker-cutter.ts';
import { builtInCaptions, STICKER_VARIANTS } from '../src/lib/server/media/sticker-variants.ts';
import { defaultOutfitSnapshot } from '../src/lib/server/outfits/default-outfit.ts';
import { createJobLoop } from '../src/worker/queue/start-queue.ts';
import { createGenerationWorld, waitForJobStatus } from '../tests/integration/generation-world.ts';
import { makeFaceCrop, makeSelfie } from '../tests/integration/generation-selfie.ts';
import { jobLoopInput } from '../tests/helpers/job-loop-input.ts';

/**
 * One guest, offline provider + Telegram emulator, the real job loop in-process:
 * - queued → first provider call (target < 1 s): the job's first stage (`passport`, recorded just
 *   before the call) minus jobs.created_at;
 * - upload → link (target < 10 s on 2 cores): jobs.link_sent_at minus created_at (the photo is on
 *   disk and the job queued in the same transaction at upload).
 * Baseline in the same run: the bare work of the pack — draw both sheets and cut them, no queue,
 * no database, no Telegram — so the ratio shows what the queue, QA and delivery add.
 *
 *   node --import tsx bench/generation-pipeline.ts
 */
const dir = mkdtempSync(path.join(tmpdir(), 'bench-pipeline-'));
try {
	await getFaceDetector(); // a running worker has its models loaded; do not time the first load
	const baselineMs = await measureBareWork();
	const world = await createGenerationWorld(dir);
	const loop = await createJobLoop(jobLoopInput(world, world.config({ JOB_POLL_MS: '300' }), { workerId: 'bench' }));
	loop.start();
	const jobId = await world.queueJob();
	await waitForJobStatus(world.db, jobId, ['done', 'failed'], 120_000);
	const job = await world.db.job.findUniqueOrThrow({ where: { jobId } });
	const progress = await world.db.jobProgress.findUniqueOrThrow({ where: { jobId } });
	const log = JSON.parse(progress.stageLog ?? '[]') as { stage: string; at: string }[];
	const firstCall = log.find((e) => e.stage === 'passport');
	const created = Date.parse(job.createdAt);
	const toFirstCall = firstCall ? Date.parse(firstCall.at) - created : NaN;
	const toLink = job.linkSentAt ? Date.parse(job.linkSentAt) - created : NaN;
	await loop.stop(1000);
	await world.close();
	console.log(`job ${job.status}; stages: ${log.map((e) => `${e.stage}+${Date.parse(e.at) - created}ms`).join(' ')}`);
	console.log(`queued → first provider call: ${toFirstCall} ms (target < 1000 ms)`);
	console.log(`upload → link: ${toLink} ms (target < 10000 ms)`);
	console.log(
		`baseline (draw + cut 2 sheets, nothing else): ${baselineMs} ms; upload → link is ${(toLink / baselineMs).toFixed(2)}× the baseline`
	);
} finally {
	rmSync(dir, { recursive: true, force: true });
}

async function measureBareWork(): Promise<number> {
	const selfie = await makeSelfie();
	const brief = {
		jobId: 0,
		selfie,
		faceCrop: await makeFaceCrop(selfie),
		outfit: defaultOutfitSnapshot('astronaut'),
		captions: builtInCaptions('en'),
		artStyle: 'cartoon' as const,
		locale: 'en' as const,
		sheetKey: DEFAULT_SHEET_KEY
	};
	const provider = createOfflineProvider();
	const started = performance.now();
	const appearance = (await provider.describeAppearance(brief)).value;
	for (let sheet = 0; sheet < 2; sheet++) {
		const variants = STICKER_VARIANTS.slice(sheet * 6, sheet * 6 + 6);
		const image = (
			await provider.drawSheet({
				brief,
				appearance,
				anchor: Buffer.alloc(0),
				layoutGuide: Buffer.alloc(0),
				variants,
				firstIndex: sheet * 6,
				cols: 3,
				rows: 2,
				aspectRatio: '3:2',
				attempt: 1
			})
		).value;
		await cutSheet(image, { expected: 6 });
	}
	return Math.round(performance.now() - started);
}
