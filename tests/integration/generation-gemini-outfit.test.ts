import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHEET_KEYS } from '../../src/lib/server/media/sheet-key.ts';
import { writeJobSnapshot } from '../../src/lib/server/jobs/job-snapshot.repository.ts';
import { builtInCaptions } from '../../src/lib/server/media/sticker-variants.ts';
import { defaultOutfitSnapshot } from '../../src/lib/server/outfits/default-outfit.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { waitForJobStatus } from './generation-harness.ts';
import { useGeminiRuns } from './generation-gemini-harness.ts';

/** What the image model is asked, read from the fake Gemini server's recorded requests. */
describe('the outfit and the event in the Gemini prompts', () => {
	const start = useGeminiRuns('gen-gemini-outfit-');

	it("asks for the snapshot's outfit text and colours, the event's captions, and a background far from the costume", async () => {
		const captions = builtInCaptions('en').map((_, i) => `Acme ${i + 1}`);
		const outfit = {
			...defaultOutfitSnapshot('pirate'),
			id: 'acme-hoodie',
			prompt: 'a cosy company hoodie with the Acme rocket on the chest',
			palette: { background: ['#ffffff', '#eeeeee'] as [string, string], body: '#2a9d3f', trim: '#ffd23f' }
		};
		const { jobId, world, gemini } = await start([], {}, async (w, id) => {
			const now = new Date().toISOString();
			const event = await w.db.event.create({
				data: {
					name: 'Acme',
					state: 'live',
					titleTemplate: '{event}',
					captionsJson: JSON.stringify({ en: captions }),
					catalogueVersion: 2,
					createdAt: now,
					updatedAt: now
				}
			});
			await writeJobSnapshot(w.db, systemClock, { jobId: id, eventId: event.id, catalogueVersion: 2, outfit });
		});
		expect(await waitForJobStatus(world.db, jobId, ['done', 'failed'], 90_000)).toBe('done');
		const drawings = gemini.calls.filter((call) => call.kind === 'image');
		expect(drawings.map((call) => call.request)).toEqual(expect.arrayContaining(['anchor', 'sheet']));
		for (const call of drawings) {
			expect(call.prompt).toContain('wearing a cosy company hoodie with the Acme rocket on the chest');
			expect(call.prompt).toContain('the costume mainly green with yellow trim');
			// The only hex a drawing asks for is the flat background the cutter keys out: for a green
			// hoodie not the usual green (the keyer would eat the hoodie) but magenta, far from green and yellow.
			expect(call.prompt.match(/#[0-9a-f]{6}/gi)).toEqual([SHEET_KEYS.magenta.hex]);
			expect(call.prompt).not.toContain('"acme-hoodie"');
		}
		const sheets = drawings
			.filter((call) => call.request === 'sheet')
			.map((call) => call.prompt)
			.join('\n');
		for (const caption of captions) expect(sheets).toContain(`caption "${caption}"`);
		expect(sheets).not.toContain('caption "Hi!"');
		// The layout guide sent with the sheets is drawn on the same key.
		expect(existsSync(path.join(world.dataDir, 'layout_guide_3x2_3-2_magenta.png'))).toBe(true);
		const job = await world.db.job.findUniqueOrThrow({ where: { jobId } });
		expect((await world.emulator.control.getStickerSet(job.packName!))?.title).toBe('Acme');
	}, 120_000);
});
