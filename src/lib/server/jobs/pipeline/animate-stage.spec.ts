import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GrammyError } from 'grammy';
import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalFileStore } from '../../files/local-file-store.ts';
import type { Logger } from '../../log/logger.ts';
import { animatedStickerNumbers } from '../../media/sticker-motion.ts';
import { videoStickerTools } from '../../media/video-sticker.ts';
import type { TelegramApi } from '../../telegram/api.ts';
import { FakeClock } from '../../time/clock.ts';
import { createSetUnlessExists, type DeliveryDeps } from '../delivery/deliver-pack.ts';
import { packStickers, type PackSticker } from '../delivery/pack-stickers.ts';
import { replaceStickerInPack } from '../delivery/replace-sticker.ts';
import { animateOne, animateStickers } from './animate-stage.ts';
import { jobFiles } from './job-files.ts';
import type { PipelineContext } from './pipeline-context.ts';

const dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A job's folder with twelve still stickers, as the drawing half leaves it before `animate`. */
async function drawnPack(animated: number, tools = videoStickerTools() as PipelineContext['videoTools']) {
	const dataDir = mkdtempSync(path.join(tmpdir(), 'animate-stage-'));
	dirs.push(dataDir);
	const files = jobFiles(dataDir, 7, 'tok7');
	const fileStore = new LocalFileStore(dataDir);
	for (let n = 1; n <= 12; n++) {
		const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="512"><circle cx="200" cy="230" r="${120 + n * 4}" fill="hsl(${n * 30},70%,60%)" stroke="#fff" stroke-width="12"/></svg>`;
		await fileStore.put(files.keys.sticker(n), await sharp(Buffer.from(svg)).png().toBuffer());
	}
	const warn = vi.fn();
	const ctx = {
		jobId: 7,
		clock: new FakeClock('2026-12-03T10:00:00.000Z'),
		logger: { warn, info: vi.fn(), error: vi.fn() } as unknown as Logger,
		files,
		fileStore,
		animatedStickers: animated,
		videoTools: tools,
		signal: new AbortController().signal,
		enterStage: vi.fn(async () => undefined)
	} as unknown as PipelineContext;
	return { ctx, files, fileStore, warn, dataDir };
}

/** The Bot API as delivery uses it, in memory: what was asked, and an answer per call. */
function fakeTelegram(refuse?: (stickers: PackSticker[]) => Error | null) {
	const created: { name: string; stickers: PackSticker[] }[] = [];
	const replaced: { oldId: string; sticker: PackSticker }[] = [];
	const api = {
		getStickerSet: vi.fn(async (name: string) => {
			const set = created.find((c) => c.name === name);
			if (!set)
				throw new GrammyError(
					'Bad Request: STICKERSET_INVALID',
					{ ok: false, error_code: 400, description: 'Bad Request: STICKERSET_INVALID' },
					'getStickerSet',
					{}
				);
			return {
				name,
				stickers: set.stickers.map((s, i) => ({ file_id: `f${i + 1}`, is_video: s.format === 'video' }))
			};
		}),
		createNewStickerSet: vi.fn(async (_user: number, name: string, _title: string, stickers: PackSticker[]) => {
			const refusal = refuse?.(stickers);
			if (refusal) throw refusal;
			created.push({ name, stickers });
			return true;
		}),
		replaceStickerInSet: vi.fn(async (_user: number, _name: string, oldId: string, sticker: PackSticker) => {
			replaced.push({ oldId, sticker });
			return true;
		})
	};
	return { api: api as unknown as TelegramApi, created, replaced };
}

function deliveryDeps(ctx: PipelineContext, api: TelegramApi): DeliveryDeps {
	return {
		...ctx,
		api,
		setTitle: 'Dana at the Expo',
		holdsLease: async () => true
	} as unknown as DeliveryDeps;
}

describe('animate stage and delivery of a mixed pack', () => {
	it('makes the event’s three clips and creates one set of 9 still + 3 video stickers', async () => {
		const { ctx, files, fileStore, warn } = await drawnPack(3);
		const outcomes = await animateStickers(ctx);
		expect(outcomes.map((o) => [o.n, o.result])).toEqual(animatedStickerNumbers(3).map((n) => [n, 'video']));
		expect(warn).not.toHaveBeenCalled();
		const log = JSON.parse(readFileSync(files.debug('animation.json'), 'utf8')) as { at: string };
		expect(log.at).toBe('2026-12-03T10:00:00.000Z');

		const { api, created } = fakeTelegram();
		await createSetUnlessExists(deliveryDeps(ctx, api), 42n, 'p42_1_by_kiosk_bot');
		expect(created).toHaveLength(1);
		const formats = created[0]!.stickers.map((s) => s.format);
		expect(formats.filter((f) => f === 'video')).toHaveLength(3);
		expect(formats.filter((f) => f === 'static')).toHaveLength(9);
		for (const n of animatedStickerNumbers(3)) {
			expect(created[0]!.stickers[n - 1]!.format).toBe('video');
			expect(created[0]!.stickers[n - 1]!.sticker.filename).toBe(`sticker_${n}.webm`);
		}
		expect(await fileStore.get(files.keys.video(1))).not.toBeNull();
	}, 120_000);

	it('moves nothing when the event says 0: twelve static stickers, no stage, no clip', async () => {
		const { ctx, fileStore, files } = await drawnPack(0);
		expect(await animateStickers(ctx)).toEqual([]);
		expect(ctx.enterStage).not.toHaveBeenCalled();
		const stickers = await packStickers(fileStore, files.keys);
		expect(stickers.every((s) => s.format === 'static')).toBe(true);
	});

	it('sends every sticker as video when all twelve have clips (an event set to 12)', async () => {
		const { fileStore, files } = await drawnPack(12);
		const clip = Buffer.from('webm bytes');
		for (const n of animatedStickerNumbers(12)) await fileStore.put(files.keys.video(n), clip);
		const stickers = await packStickers(fileStore, files.keys);
		expect(stickers.map((s) => s.format)).toEqual(Array(12).fill('video'));
	});

	it('keeps a sticker still with a warning when its clip cannot meet the rules', async () => {
		const { ctx, files, fileStore, warn } = await drawnPack(1, videoStickerTools({ maxBytes: 1_000, crfLadder: [63] }));
		const [outcome] = await animateStickers(ctx);
		expect(outcome).toMatchObject({ n: 1, result: 'still', warning: expect.stringMatching(/over 1000/) });
		expect(warn).toHaveBeenCalledWith(
			expect.objectContaining({ sticker: 1 }),
			'animated sticker falls back to the still one'
		);
		expect(await fileStore.get(files.keys.video(1))).toBeNull();
		const log = JSON.parse(readFileSync(files.debug('animation.json'), 'utf8')) as { stickers: { result: string }[] };
		expect(log.stickers[0]!.result).toBe('still');
	}, 60_000);

	it('keeps every sticker still when the worker has no ffmpeg', async () => {
		const { ctx, warn } = await drawnPack(3, null);
		const outcomes = await animateStickers(ctx);
		expect(outcomes.map((o) => o.result)).toEqual(['still', 'still', 'still']);
		expect(outcomes[0]!.warning).toMatch(/ffmpeg with libvpx-vp9 is not available/);
		expect(warn).toHaveBeenCalledTimes(3);
	});

	it('creates the set still when Telegram refuses the clips (400), and says so in the log', async () => {
		const { ctx, fileStore, files, warn } = await drawnPack(0);
		await fileStore.put(files.keys.video(1), Buffer.from('clip'));
		const refusal = (stickers: PackSticker[]) =>
			stickers.some((s) => s.format === 'video')
				? new GrammyError(
						'Bad Request: STICKER_VIDEO_LONG',
						{ ok: false, error_code: 400, description: 'Bad Request: STICKER_VIDEO_LONG' },
						'createNewStickerSet',
						{}
					)
				: null;
		const { api, created } = fakeTelegram(refusal);
		await createSetUnlessExists(deliveryDeps(ctx, api), 42n, 'p42_2_by_kiosk_bot');
		expect(created[0]!.stickers.every((s) => s.format === 'static')).toBe(true);
		expect(warn).toHaveBeenCalledWith(expect.anything(), expect.stringMatching(/refused the video stickers/));
	});

	it('does not retry on other failures (a 500 may have created the set)', async () => {
		const { ctx, fileStore, files } = await drawnPack(0);
		await fileStore.put(files.keys.video(1), Buffer.from('clip'));
		const { api, created } = fakeTelegram(() => new Error('socket hang up'));
		await expect(createSetUnlessExists(deliveryDeps(ctx, api), 42n, 'p42_3_by_kiosk_bot')).rejects.toThrow(
			'socket hang up'
		);
		expect(created).toHaveLength(0);
	});
});

describe('redraw of a moving sticker', () => {
	it('re-animates the new figure with the same motion and replaces it in the set as video', async () => {
		const { ctx, files, fileStore } = await drawnPack(1);
		const { api, replaced } = fakeTelegram();
		await animateStickers(ctx);
		await createSetUnlessExists(deliveryDeps(ctx, api), 42n, 'p42_4_by_kiosk_bot');
		const before = await fileStore.get(files.keys.video(1));
		// The redraw stores a new figure (keepIfItPasses drops the old clip), then animates it again.
		const newFigure = await sharp({
			create: { width: 512, height: 480, channels: 4, background: { r: 200, g: 40, b: 40, alpha: 1 } }
		})
			.png()
			.toBuffer();
		await fileStore.put(files.keys.sticker(1), newFigure);
		await fileStore.delete(files.keys.video(1));
		const outcome = await animateOne(ctx, 1);
		expect(outcome).toMatchObject({ n: 1, motion: 'wave', result: 'video' });
		const after = await fileStore.get(files.keys.video(1));
		expect(after).not.toBeNull();
		expect(after!.equals(before!)).toBe(false);
		await replaceStickerInPack(api, {
			userId: 42n,
			packName: 'p42_4_by_kiosk_bot',
			stickerNumber: 1,
			png: newFigure,
			webm: after
		});
		expect(replaced).toEqual([
			{ oldId: 'f1', sticker: expect.objectContaining({ format: 'video', emoji_list: ['👋'] }) }
		]);
	}, 120_000);

	it('replaces a still sticker with a still one', async () => {
		const { ctx } = await drawnPack(0);
		const { api, replaced } = fakeTelegram();
		await createSetUnlessExists(deliveryDeps(ctx, api), 42n, 'p42_5_by_kiosk_bot');
		await replaceStickerInPack(api, {
			userId: 42n,
			packName: 'p42_5_by_kiosk_bot',
			stickerNumber: 2,
			png: Buffer.from('png')
		});
		expect(replaced[0]!.sticker.format).toBe('static');
	});
});
