import { existsSync, readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { jobFiles } from '../../src/lib/server/jobs/pipeline/job-files.ts';
import { useGenerationWorld, waitForJobStatus, type GenerationWorld } from './generation-harness.ts';

/**
 * What a failure message needs to tell a job that did not end `done` apart (it is only printed when
 * the assertion fails): status, attempts, last error, stage, every provider call in order, and the
 * local quality gate's rejected stickers (face count, coverage) when the gate ran.
 */
async function describeJob(world: GenerationWorld, jobId: number): Promise<string> {
	const job = await world.db.job.findUnique({
		where: { jobId },
		select: { status: true, attempts: true, error: true }
	});
	const progress = await world.db.jobProgress.findUnique({ where: { jobId }, select: { stage: true, detail: true } });
	const usage = await world.db.apiUsage.findMany({ where: { jobId }, orderBy: { id: 'asc' } });
	const calls = usage.map((u) => `${u.stage}:${u.kind}:${u.ok ? 'ok' : `FAILED(${u.error ?? ''})`}`);
	const gateFile = jobFiles(world.dataDir, jobId, '').debug('consistency.json');
	const gate = existsSync(gateFile)
		? (
				JSON.parse(readFileSync(gateFile, 'utf8')) as {
					stickers: { n: number; ok: boolean; faces: number; coverage: number; reasons: string[] }[];
				}
			).stickers
		: [];
	const rejected = gate
		.filter((v) => !v.ok)
		.map((v) => `#${v.n} faces=${v.faces} coverage=${v.coverage} ${v.reasons.join(', ')}`);
	return [
		`job ${jobId}: status=${job?.status} attempts=${job?.attempts} error=${job?.error ?? '-'}`,
		`stage=${progress?.stage ?? '-'} ${progress?.detail ?? ''}`,
		`api_usage (${usage.length}): ${calls.join(' | ')}`,
		`local gate rejected: ${rejected.length ? rejected.join(' | ') : gate.length ? 'none' : 'gate did not run'}`
	].join('\n');
}

describe('generation with the offline provider and the Telegram emulator', () => {
	const worlds = useGenerationWorld('gen-offline-');

	it('turns a queued job into a 12-sticker set, one link, no selfie, no appearance card, usage rows per stage', async () => {
		const world = await worlds.open();
		const jobId = await world.queueJob();
		await worlds.startLoop();
		const current = world;
		const final = await waitForJobStatus(current.db, jobId, ['done', 'failed'], 90_000).catch(async (error: Error) => {
			throw new Error(`${error.message}\n${await describeJob(current, jobId)}`); // a timeout says where the job stood
		});
		const diagnostic = await describeJob(current, jobId);
		expect(final, diagnostic).toBe('done');

		const job = await world.db.job.findUniqueOrThrow({ where: { jobId } });
		expect(job.appearanceJson).toBeNull();
		expect(job.linkSentAt).not.toBeNull();
		expect(job.providerUsed).toBe('offline');
		expect(existsSync(job.photoPath)).toBe(false);
		const set = await world.emulator.control.getStickerSet(job.packName!);
		expect(set?.stickers).toHaveLength(12);
		expect(job.packName).toMatch(new RegExp(`^p${world.guestId}_1_by_`));
		const files = await Promise.all(set!.stickers.map((sticker) => world.emulator.control.fileBytes(sticker.url)));
		// Three move by default (a WEBM, EBML's magic first); each clip's rules are generation-animated's.
		const isWebm = (bytes: Buffer) => bytes.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]));
		expect(files.filter(isWebm)).toHaveLength(3);
		for (const bytes of files.filter((file) => !isWebm(file))) {
			const meta = await sharp(bytes).metadata();
			expect(bytes.length).toBeLessThanOrEqual(512 * 1024);
			expect(Math.max(meta.width!, meta.height!)).toBe(512);
			expect(meta.hasAlpha).toBe(true);
		}
		const messages = await world.emulator.control.chatMessages(world.guestId);
		expect(messages.filter((m) => m.text?.includes(`https://t.me/addstickers/${job.packName}`))).toHaveLength(1);
		const user = await world.db.user.findUniqueOrThrow({ where: { telegramUserId: BigInt(world.guestId) } });
		expect(user.packLink).toBe(`https://t.me/addstickers/${job.packName}`);
		expect(user.packCompletedAt).not.toBeNull();
		const rows = await world.db.apiUsage.findMany({ where: { jobId } });
		const stages = rows.map((u) => u.stage);
		expect(new Set(stages), diagnostic).toEqual(
			new Set(['passport', 'anchor', 'anchor_verify', 'sheet', 'qa_sheet', 'qa_pack'])
		);
		expect(
			stages.filter((s) => s === 'sheet'),
			diagnostic
		).toHaveLength(2);
		// The local verdict is recorded like a paid review, so spend and stage tables are uniform.
		expect(rows.filter((u) => u.stage === 'qa_pack')).toEqual([
			expect.objectContaining({ kind: 'qa', provider: 'offline', estCostUsd: 0, ok: 1 })
		]);
		const progress = await world.db.jobProgress.findUniqueOrThrow({ where: { jobId } });
		expect(progress.stage).toBe('done');
		const counts = await world.emulator.control.callCounts();
		expect(counts.methods.createNewStickerSet).toBe(1);
	}, 120_000);
});
