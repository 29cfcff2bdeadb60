import { animatedStickerNumbers, DEFAULT_ANIMATED_STICKERS } from '../../src/lib/server/media/sticker-motion.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { SHEET_KEYS } from '../../src/lib/server/media/sheet-key.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { writeJobSnapshot } from '../../src/lib/server/jobs/job-snapshot.repository.ts';
import { defaultOutfitSnapshot } from '../../src/lib/server/outfits/default-outfit.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import type { JobLoop } from '../../src/worker/queue/job-loop.ts';
import { createJobLoop } from '../../src/worker/queue/start-queue.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { createGenerationWorld, waitForJobStatus, type GenerationWorld } from './generation-harness.ts';
import { jobLoopInput } from '../helpers/job-loop-input.ts';

/**
 * Two guests' jobs with the offline provider, each with its own outfit snapshot: the costume shows
 * in the stickers Telegram got (measured on the pixels of the same sticker number), and the set's
 * title comes from the job's event.
 */
interface Rgb {
	r: number;
	g: number;
	b: number;
}

/** Mean colour of the opaque pixels in the torso box (middle third across, below the face). */
async function torsoColour(png: Buffer): Promise<Rgb> {
	const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
	const sum = { r: 0, g: 0, b: 0, n: 0 };
	for (let y = Math.round(info.height * 0.68); y < Math.round(info.height * 0.8); y++) {
		for (let x = Math.round(info.width * 0.36); x < Math.round(info.width * 0.64); x++) {
			const i = (y * info.width + x) * 4;
			if ((data[i + 3] ?? 0) < 200) continue;
			sum.r += data[i] ?? 0;
			sum.g += data[i + 1] ?? 0;
			sum.b += data[i + 2] ?? 0;
			sum.n++;
		}
	}
	expect(sum.n).toBeGreaterThan(500);
	return { r: sum.r / sum.n, g: sum.g / sum.n, b: sum.b / sum.n };
}

const distance = (a: Rgb, b: Rgb) => Math.hypot(a.r - b.r, a.g - b.g, a.b - b.b);
const hex = (text: string): Rgb => ({
	r: Number.parseInt(text.slice(1, 3), 16),
	g: Number.parseInt(text.slice(3, 5), 16),
	b: Number.parseInt(text.slice(5, 7), 16)
});

/** Two stickers that stay still by default (a moving one is a WEBM in the set, not a picture to sample). */
const STILL_STICKERS = [2, 7];
const MOVING_STICKERS = animatedStickerNumbers(DEFAULT_ANIMATED_STICKERS);

describe('the outfit reaches the offline picture', () => {
	const tempDir = useTempDir('gen-outfits-');
	let world: GenerationWorld | undefined;
	let loop: JobLoop | undefined;
	afterEach(async () => {
		await loop?.stop(1000);
		await world?.close();
	});

	it('draws each job in its own costume and names the set from the event template', async () => {
		world = await createGenerationWorld(tempDir());
		const now = new Date().toISOString();
		const event = await world.db.event.create({
			data: {
				name: 'Acme Summer Party',
				state: 'live',
				titleTemplate: '{event} · {first_name}',
				catalogueVersion: 1,
				createdAt: now,
				updatedAt: now
			}
		});
		const astronautJob = await world.queueJob({ templateId: 'astronaut' });
		const wizardJob = await world.queueJob({ templateId: 'astronaut' }); // the snapshot, not template_id, decides
		await writeJobSnapshot(world.db, systemClock, {
			jobId: astronautJob,
			eventId: event.id,
			catalogueVersion: 1,
			outfit: defaultOutfitSnapshot('astronaut')
		});
		await writeJobSnapshot(world.db, systemClock, {
			jobId: wizardJob,
			eventId: 1,
			catalogueVersion: 1,
			outfit: defaultOutfitSnapshot('wizard')
		});
		loop = await createJobLoop(jobLoopInput(world, world.config(), { workerId: 'w-outfits' }));
		loop.start();
		for (const jobId of [astronautJob, wizardJob])
			expect(await waitForJobStatus(world.db, jobId, ['done', 'failed'], 180_000)).toBe('done');

		const sets = [];
		for (const jobId of [astronautJob, wizardJob]) {
			const job = await world.db.job.findUniqueOrThrow({ where: { jobId } });
			sets.push((await world.emulator.control.getStickerSet(job.packName!))!);
		}
		expect(sets.map((set) => set.title)).toEqual(['Acme Summer Party · Dana', 'My party stickers']);

		for (const n of STILL_STICKERS) {
			expect(MOVING_STICKERS, 'the sampled sticker is a still one').not.toContain(n);
			const [astronaut, wizard] = await Promise.all(
				sets.map(async (set) => torsoColour(await world!.emulator.control.fileBytes(set.stickers[n - 1]!.url)))
			);
			// The same sticker number, a different costume: white space suit against a purple robe.
			expect(distance(astronaut!, wizard!), `sticker ${n}`).toBeGreaterThan(120);
			expect(distance(astronaut!, hex('#f4f6fb')), `sticker ${n}`).toBeLessThan(distance(astronaut!, hex('#5a189a')));
			expect(distance(wizard!, hex('#5a189a')), `sticker ${n}`).toBeLessThan(distance(wizard!, hex('#f4f6fb')));
		}
	}, 240_000);

	it('draws a teal costume on a key far from it (not the usual green), so the costume keeps its colour', async () => {
		world = await createGenerationWorld(tempDir());
		const jobId = await world.queueJob({ templateId: 'astronaut' });
		const teal = {
			...defaultOutfitSnapshot('chef'),
			id: 'team-kit',
			palette: { background: ['#ffffff', '#dddddd'] as [string, string], body: '#1a9e8f', trim: '#0f766e' }
		};
		await writeJobSnapshot(world.db, systemClock, { jobId, eventId: 1, catalogueVersion: 1, outfit: teal });
		loop = await createJobLoop(jobLoopInput(world, world.config(), { workerId: 'w-teal' }));
		loop.start();
		expect(await waitForJobStatus(world.db, jobId, ['done', 'failed'], 180_000)).toBe('done');
		// The sheets were drawn and cut on magenta (the diagnosis keeps the key asked and the colour found).
		const diagnosis = JSON.parse(
			readFileSync(path.join(world.dataDir, 'debug_sheets', `job${jobId}_sheet1_try1.json`), 'utf8')
		) as { asked: Rgb; background: Rgb };
		expect(diagnosis.asked).toEqual(SHEET_KEYS.magenta.rgb);
		expect(distance(diagnosis.background, SHEET_KEYS.magenta.rgb)).toBeLessThan(10);
		const job = await world.db.job.findUniqueOrThrow({ where: { jobId } });
		const set = (await world.emulator.control.getStickerSet(job.packName!))!;
		for (const n of STILL_STICKERS) {
			expect(MOVING_STICKERS, 'the sampled sticker is a still one').not.toContain(n);
			const torso = await torsoColour(await world.emulator.control.fileBytes(set.stickers[n - 1]!.url));
			expect(distance(torso, hex('#1a9e8f')), `sticker ${n}`).toBeLessThan(60);
		}
	}, 240_000);
});
