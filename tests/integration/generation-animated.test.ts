import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { jobFiles } from '../../src/lib/server/jobs/pipeline/job-files.ts';
import { animatedStickerNumbers } from '../../src/lib/server/media/sticker-motion.ts';
import { defaultOutfitSnapshot } from '../../src/lib/server/outfits/default-outfit.ts';
import { useGenerationWorld, waitForJobStatus, type GenerationWorld } from './generation-harness.ts';

/**
 * Issue #28 through the real job loop, the offline provider and the Telegram emulator: the pack's
 * moving stickers are made by the worker, checked with ffprobe here on their own, and created in
 * one set beside the still ones. The first test needs an emulator that takes `format: 'video'`
 * stickers as the Bot API does (until then Telegram's refusal makes the worker create the set still).
 */
const EBML = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

async function finishedPack(world: GenerationWorld, jobId: number) {
	expect(await waitForJobStatus(world.db, jobId, ['done', 'failed'], 120_000)).toBe('done');
	const job = await world.db.job.findUniqueOrThrow({ where: { jobId } });
	const set = await world.emulator.control.getStickerSet(job.packName!);
	expect(set?.stickers).toHaveLength(12);
	const moving = [];
	for (const [i, sticker] of set!.stickers.entries())
		if ((await world.emulator.control.fileBytes(sticker.url)).subarray(0, 4).equals(EBML)) moving.push(i + 1);
	return { files: jobFiles(world.dataDir, jobId, job.sessionToken), moving };
}

/** An event of its own for the job, as a kiosk of that event would have queued it. */
async function jobOfEvent(world: GenerationWorld, jobId: number, animatedStickers: number): Promise<void> {
	const now = new Date().toISOString();
	const event = await world.db.event.create({
		data: {
			name: 'Expo',
			state: 'live',
			titleTemplate: '{pack_title}',
			animatedStickers,
			createdAt: now,
			updatedAt: now
		}
	});
	await world.db.jobSnapshot.create({
		data: {
			jobId,
			eventId: event.id,
			catalogueVersion: 1,
			outfitJson: JSON.stringify(defaultOutfitSnapshot('tuxedo')),
			createdAt: now
		}
	});
}

describe('animated stickers in a pack (offline provider, emulator)', () => {
	const worlds = useGenerationWorld('gen-animated-');

	it('gives the guest one set of 9 still and 3 video stickers, each clip inside Telegram’s rules', async () => {
		const world = await worlds.open();
		const jobId = await world.queueJob();
		await worlds.startLoop();
		const { files, moving } = await finishedPack(world, jobId);
		const expected = animatedStickerNumbers(3);
		for (const n of expected) {
			const probe = JSON.parse(
				execFileSync('ffprobe', [
					'-v',
					'error',
					'-show_streams',
					'-show_format',
					'-of',
					'json',
					files.video(n)
				]).toString()
			) as {
				streams: {
					codec_type: string;
					codec_name: string;
					width: number;
					height: number;
					r_frame_rate: string;
					tags?: Record<string, string>;
				}[];
				format: { duration: string; size: string };
			};
			expect(probe.streams.map((s) => s.codec_type)).toEqual(['video']);
			expect(probe.streams[0]!.codec_name).toBe('vp9');
			// ffmpeg writes the WebM tag as alpha_mode (ffprobe keeps its case).
			expect(probe.streams[0]!.tags?.alpha_mode ?? probe.streams[0]!.tags?.ALPHA_MODE).toBe('1');
			expect(Math.max(probe.streams[0]!.width, probe.streams[0]!.height)).toBe(512);
			expect(Number(probe.format.duration)).toBeLessThanOrEqual(3);
			const [frames, per] = probe.streams[0]!.r_frame_rate.split('/').map(Number);
			expect(frames! / per!).toBeLessThanOrEqual(30);
			expect(Number(probe.format.size)).toBeLessThanOrEqual(256 * 1024);
		}
		const log = JSON.parse(readFileSync(files.debug('animation.json'), 'utf8')) as { stickers: { result: string }[] };
		expect(log.stickers.map((s) => s.result)).toEqual(['video', 'video', 'video']);
		expect(moving).toEqual(expected);
	}, 180_000);

	it('gives twelve still stickers and makes no clip for an event set to 0', async () => {
		const world = await worlds.open();
		const jobId = await world.queueJob();
		await jobOfEvent(world, jobId, 0);
		await worlds.startLoop();
		const { files, moving } = await finishedPack(world, jobId);
		expect(moving).toEqual([]);
		for (let n = 1; n <= 12; n++) expect(existsSync(files.video(n))).toBe(false);
		expect(existsSync(files.debug('animation.json'))).toBe(false);
	}, 180_000);
});
