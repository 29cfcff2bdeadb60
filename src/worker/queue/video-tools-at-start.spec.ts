import { describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../lib/server/log/logger.ts';
import { videoStickerTools } from '../../lib/server/media/video-sticker.ts';
import { videoToolsAtStart } from './start-queue.ts';

describe('the worker’s start-up check for animated stickers', () => {
	it('turns them off with one clear warning when ffmpeg is missing (no crash)', async () => {
		const warn = vi.fn();
		const logger = { warn } as unknown as Logger;
		const tools = await videoToolsAtStart(videoStickerTools({ ffmpeg: '/nonexistent/ffmpeg' }), logger);
		expect(tools).toBeNull();
		expect(warn).toHaveBeenCalledTimes(1);
		expect(warn.mock.calls[0]![1]).toMatch(/animated stickers are off.*still stickers only/);
		expect(warn.mock.calls[0]![0]).toEqual({ missing: expect.stringMatching(/\/nonexistent\/ffmpeg could not run/) });
	});

	it('keeps them on when ffmpeg has libvpx-vp9 and ffprobe runs', async () => {
		const warn = vi.fn();
		const tools = await videoToolsAtStart(videoStickerTools(), { warn } as unknown as Logger);
		expect(tools?.ffmpeg).toBe('ffmpeg');
		expect(warn).not.toHaveBeenCalled();
	});
});
