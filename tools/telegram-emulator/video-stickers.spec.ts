import { InputFile, type Api } from 'grammy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TelegramEmulator } from './server.ts';
import {
	emulatorWithStartedUser,
	refusal,
	botFor,
	makePng,
	makeVideo,
	rawCall,
	startedUser,
	startEmulator,
	TEST_TOKEN
} from './test-support.ts';
import { isWebmContainer } from './video-sticker.ts';

// Video stickers (InputSticker format "video", WEBM/VP9) through grammY, as the product sends them:
// multipart attach:// uploads mixed with PNGs in one set, then read back and downloaded.

let emulator: TelegramEmulator;
let api: Api;
let userId: number;
let webm: Buffer;
let png: Buffer;

beforeAll(async () => {
	({ emulator, api, userId } = await emulatorWithStartedUser());
	[webm, png] = await Promise.all([makeVideo(), makePng(512, 512)]);
});

afterAll(() => emulator.close());

function videoSticker(bytes: Buffer, emoji = '🎬') {
	return { sticker: new InputFile(bytes, 'clip.webm'), format: 'video' as const, emoji_list: [emoji] };
}

function staticSticker(bytes: Buffer, emoji = '🙂') {
	return { sticker: new InputFile(bytes, 'still.png'), format: 'static' as const, emoji_list: [emoji] };
}

let setSeq = 0;
function newSetName(): string {
	setSeq += 1;
	return `video_${setSeq}_by_sticker_kiosk_bot`;
}

describe('a set mixing 9 static and 3 video stickers', () => {
	it('is created in one call, read back with is_video, and its WEBM files download unchanged', async () => {
		const name = newSetName();
		const stickers = Array.from({ length: 12 }, (_, index) =>
			index % 4 === 3 ? videoSticker(webm) : staticSticker(png)
		);
		await expect(api.createNewStickerSet(userId, name, 'Ann, animated', stickers)).resolves.toBe(true);

		const set = await api.getStickerSet(name);
		expect(set.sticker_type).toBe('regular');
		expect(set.stickers.map((sticker) => sticker.is_video)).toEqual(
			Array.from({ length: 12 }, (_, index) => index % 4 === 3)
		);
		const video = set.stickers[3];
		expect(video).toMatchObject({ type: 'regular', width: 512, height: 512, is_animated: false, is_video: true });
		expect(video).toMatchObject({ emoji: '🎬', set_name: name, file_size: webm.length });
		expect(set.stickers[0]).toMatchObject({ is_video: false, is_animated: false });

		const file = await api.getFile(video?.file_id ?? '');
		expect(file.file_path).toMatch(/^stickers\/.+\.webm$/);
		const download = await fetch(`${emulator.url}/file/bot${TEST_TOKEN}/${file.file_path}`);
		expect(download.headers.get('content-type')).toBe('video/webm');
		expect(Buffer.from(await download.arrayBuffer()).equals(webm)).toBe(true);

		const view = await emulator.control.getStickerSet(name);
		expect(view?.stickers.filter((sticker) => sticker.is_video)).toHaveLength(3);
	});

	it('adds a video sticker, replaces a static one by a video one, and sends one by file_id', async () => {
		const name = newSetName();
		await api.createNewStickerSet(userId, name, 'Mixed', [staticSticker(png), staticSticker(png)]);
		await api.addStickerToSet(userId, name, videoSticker(webm, '🎉'));
		const first = (await api.getStickerSet(name)).stickers[0]?.file_id ?? '';
		await api.replaceStickerInSet(userId, name, first, videoSticker(webm, '✨'));
		const set = await api.getStickerSet(name);
		expect(set.stickers.map((sticker) => [sticker.emoji, sticker.is_video])).toEqual([
			['✨', true],
			['🙂', false],
			['🎉', true]
		]);
		const sent = await api.sendSticker(userId, set.stickers[0]?.file_id ?? '');
		expect(sent.sticker).toMatchObject({ is_video: true, set_name: name });
		const messages = await emulator.control.chatMessages(userId);
		expect(messages.at(-1)?.sticker).toMatchObject({ is_video: true });
	});

	it('takes a video uploaded first with uploadStickerFile, then given by file_id', async () => {
		const uploaded = await api.uploadStickerFile(userId, 'video', new InputFile(webm, 'clip.webm'));
		expect(uploaded.file_path).toMatch(/\.webm$/);
		const name = newSetName();
		const byId = { sticker: uploaded.file_id, format: 'video' as const, emoji_list: ['🎬'] };
		await api.createNewStickerSet(userId, name, 'By id', [byId]);
		expect((await api.getStickerSet(name)).stickers[0]).toMatchObject({ is_video: true });
	});

	it('accepts a 512×288 clip and a WEBM written to a pipe (no duration in its header)', async () => {
		const wide = await makeVideo({ width: 512, height: 288 });
		const piped = await makeVideo({ piped: true });
		const name = newSetName();
		await api.createNewStickerSet(userId, name, 'Shapes', [videoSticker(wide), videoSticker(piped)]);
		const set = await api.getStickerSet(name);
		expect(set.stickers.map((sticker) => [sticker.width, sticker.height])).toEqual([
			[512, 288],
			[512, 512]
		]);
	});
});

describe('video sticker checks', () => {
	async function refusedWith(sticker: Parameters<Api['createNewStickerSet']>[3][number]): Promise<string> {
		const error = await refusal(api.createNewStickerSet(userId, newSetName(), 'Refused', [sticker]));
		expect(error.error_code).toBe(400);
		return error.description;
	}

	it('refuses a clip longer than 3 seconds, also when its header has no duration', async () => {
		expect(await refusedWith(videoSticker(await makeVideo({ seconds: 4 })))).toBe('Bad Request: STICKER_VIDEO_LONG');
		const piped = await makeVideo({ seconds: 4, piped: true });
		expect(await refusedWith(videoSticker(piped))).toBe('Bad Request: STICKER_VIDEO_LONG');
	});

	it('refuses a side other than 512 px', async () => {
		const large = await makeVideo({ width: 600, height: 600 });
		expect(await refusedWith(videoSticker(large))).toBe('Bad Request: STICKER_GIF_DIMENSIONS');
		const small = await makeVideo({ width: 256, height: 256 });
		expect(await refusedWith(videoSticker(small))).toBe('Bad Request: STICKER_GIF_DIMENSIONS');
	});

	it('refuses a file over 256 KB: an upload as the Bot API server does, a file_id as Telegram does', async () => {
		const heavy = await makeVideo({ noise: true });
		expect(heavy.length).toBeGreaterThan(256 * 1024);
		expect(await refusedWith(videoSticker(heavy))).toBe('Bad Request: file is too big');
		// A big WEBM can be on Telegram already, e.g. sent as a document; its file_id then reaches
		// Telegram's own check.
		const document = await api.sendDocument(userId, new InputFile(heavy, 'heavy.webm'));
		const byId = { sticker: document.document?.file_id ?? '', format: 'video' as const, emoji_list: ['🎬'] };
		expect(await refusedWith(byId)).toBe('Bad Request: STICKER_VIDEO_BIG');
	});

	it('refuses H.264 in MP4, VP8, an audio track and more than 30 FPS', async () => {
		const mp4 = await makeVideo({ codec: 'h264' });
		expect(await refusedWith(videoSticker(mp4))).toBe('Bad Request: STICKER_VIDEO_NOWEBM');
		const vp8 = await makeVideo({ codec: 'vp8' });
		expect(await refusedWith(videoSticker(vp8))).toBe('Bad Request: STICKER_VIDEO_NOWEBM');
		const withSound = await makeVideo({ audio: true });
		expect(await refusedWith(videoSticker(withSound))).toBe('Bad Request: STICKER_VIDEO_NOWEBM');
		const fast = await makeVideo({ fps: 60 });
		expect(await refusedWith(videoSticker(fast))).toBe('Bad Request: STICKER_VIDEO_NOWEBM');
	});

	it('refuses a format that does not match the file', async () => {
		expect(await refusedWith(videoSticker(png))).toBe('Bad Request: STICKER_VIDEO_NOWEBM');
		const webmAsStatic = await refusal(api.createNewStickerSet(userId, newSetName(), 'Refused', [staticSticker(webm)]));
		expect(webmAsStatic.description).toBe('Bad Request: STICKER_PNG_NOPNG');
		const upload = await refusal(api.uploadStickerFile(userId, 'video', new InputFile(png)));
		expect(upload.description).toBe('Bad Request: STICKER_VIDEO_NOWEBM');
	});

	it('refuses a video sticker given by URL, as Telegram downloads only static ones', async () => {
		const { status, body } = await rawCall(emulator, 'createNewStickerSet', {
			user_id: userId,
			name: newSetName(),
			title: 'By URL',
			stickers: [{ sticker: 'https://example.com/clip.webm', format: 'video', emoji_list: ['🎬'] }]
		});
		expect(status).toBe(400);
		expect(body.description).toBe("Bad Request: video stickers can't be uploaded by URL");
	});

	it('tells a Matroska file from a WEBM one by its DocType', () => {
		expect(isWebmContainer(webm)).toBe(true);
		const docType = webm.indexOf('webm', 0, 'latin1');
		const matroska = Buffer.concat([webm.subarray(0, docType), Buffer.from('matr'), webm.subarray(docType + 4)]);
		expect(isWebmContainer(matroska)).toBe(false);
		expect(isWebmContainer(png)).toBe(false);
	});
});

describe('without ffprobe', () => {
	it('refuses video stickers with a clear message instead of accepting them unchecked', async () => {
		const blind = await startEmulator({ ffprobePath: '/nonexistent/ffprobe' });
		try {
			const blindApi = botFor(blind).api;
			const owner = await startedUser(blind);
			const error = await refusal(blindApi.createNewStickerSet(owner, newSetName(), 'Blind', [videoSticker(webm)]));
			expect(error.error_code).toBe(500);
			expect(error.description).toMatch(/needs ffprobe to check video stickers.*EMULATOR_FFPROBE/);
			await expect(blindApi.createNewStickerSet(owner, newSetName(), 'Still fine', [staticSticker(png)])).resolves.toBe(
				true
			);
		} finally {
			await blind.close();
		}
	});
});
