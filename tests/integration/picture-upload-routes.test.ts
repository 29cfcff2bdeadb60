import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { OperatorIdentity } from '../../src/lib/server/auth/roles.ts';
import { broadcastImageUpload } from '../../src/lib/server/broadcasts/broadcast-image-route.ts';
import { outfitPreviewUpload } from '../../src/lib/server/events/preview-upload-route.ts';
import { answerPictureUpload } from '../../src/lib/server/web/picture-upload.ts';
import { localFileStore } from '../helpers/file-store.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const olga: OperatorIdentity = { id: 1, username: 'olga', displayName: null, role: 'operator' };
const vera: OperatorIdentity = { id: 2, username: 'vera', displayName: null, role: 'viewer' };
const MB = 1024 * 1024;

type Route = (dataDir: string, who: OperatorIdentity | null, request: Request) => Promise<Response>;
const ROUTES: Record<'preview' | 'broadcast', Route> = {
	preview: (dataDir, who, request) => answerPictureUpload(who, request, outfitPreviewUpload(localFileStore(dataDir))),
	broadcast: (dataDir, who, request) => answerPictureUpload(who, request, broadcastImageUpload(localFileStore(dataDir)))
};

async function answer(
	route: Route,
	dataDir: string,
	who: OperatorIdentity | null,
	bytes: Buffer,
	declareLength = true
) {
	const headers: Record<string, string> = { 'content-type': 'image/png' };
	if (declareLength) headers['content-length'] = String(bytes.byteLength);
	const body = declareLength ? new Uint8Array(bytes) : new Blob([new Uint8Array(bytes)]).stream();
	const response = await route(
		dataDir,
		who,
		new Request('http://console.test/upload', { method: 'POST', headers, body, duplex: 'half' } as RequestInit)
	);
	return {
		status: response.status,
		cache: response.headers.get('cache-control'),
		body: (await response.json()) as Record<string, unknown>
	};
}

const png = (width: number, height: number) =>
	sharp({ create: { width, height, channels: 3, background: '#2a7' } })
		.png()
		.toBuffer();

/**
 * The outfit-preview and broadcast-picture uploads are one handler (web/picture-upload.ts) with
 * each route's own limits: the same statuses, the same {error} shape and the same sentences. They
 * used to differ (a preview over its size was 400, a broadcast picture 413; the sentences differed).
 */
describe('the console’s picture uploads answer alike', () => {
	const tempDir = useTempDir('picture-upload-');

	it('refuse a non-picture, a mislabelled file, a nobody and a viewer with the same answers', async () => {
		const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
		const jpegMagicOnPng = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), await png(10, 10)]);
		const picture = await png(64, 48);
		const answers = async (route: Route) => {
			const dataDir = tempDir();
			return [
				await answer(route, dataDir, olga, svg),
				await answer(route, dataDir, olga, Buffer.from('hello')),
				await answer(route, dataDir, olga, Buffer.alloc(0)),
				(await answer(route, dataDir, olga, jpegMagicOnPng)).status,
				await answer(route, dataDir, null, picture),
				await answer(route, dataDir, vera, picture)
			];
		};
		const preview = await answers(ROUTES.preview);
		expect(await answers(ROUTES.broadcast)).toEqual(preview);
		const notAPicture = {
			status: 400,
			cache: 'no-store',
			body: { error: 'This file is not a picture: upload a JPEG, PNG or WebP image.' }
		};
		expect(preview.slice(0, 3)).toEqual([notAPicture, notAPicture, notAPicture]);
		expect(preview[3]).toBe(400);
		expect(preview[4]).toEqual({ status: 401, cache: 'no-store', body: { error: 'Please sign in to the console.' } });
		expect(preview[5]).toMatchObject({ status: 403 });
	});

	it('refuse a body over the route’s own limit with 413 and the same sentence naming that limit, declared or streamed', async () => {
		const over = (limit: number) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), randomBytes(limit)]);
		for (const declared of [true, false]) {
			expect(await answer(ROUTES.preview, tempDir(), olga, over(2 * MB), declared)).toEqual({
				status: 413,
				cache: 'no-store',
				body: { error: 'This picture is larger than 2 MB: make it smaller and upload it again.' }
			});
			expect(await answer(ROUTES.broadcast, tempDir(), olga, over(10 * MB), declared)).toEqual({
				status: 413,
				cache: 'no-store',
				body: { error: 'This picture is larger than 10 MB: make it smaller and upload it again.' }
			});
		}
		// 3 MB is the preview's business only: the broadcast takes it.
		const big = Buffer.concat([await png(200, 200), randomBytes(3 * MB)]);
		expect((await answer(ROUTES.preview, tempDir(), olga, big)).status).toBe(413);
		expect((await answer(ROUTES.broadcast, tempDir(), olga, await png(200, 200))).status).toBe(201);
	});

	it('refuse a picture over the route’s own pixel limit with the same sentence naming that limit', async () => {
		// Only the header is read before the refusal, so a flat 41-megapixel PNG costs little.
		const huge = await sharp({ create: { width: 6500, height: 6400, channels: 3, background: '#000' } })
			.png({ compressionLevel: 9 })
			.toBuffer();
		expect(huge.byteLength).toBeLessThan(2 * MB);
		const sentence = (mp: number) =>
			`This picture has more than ${mp} megapixels: scale it down (1024×1024 is plenty) and upload it again.`;
		expect(await answer(ROUTES.preview, tempDir(), olga, huge)).toEqual({
			status: 400,
			cache: 'no-store',
			body: { error: sentence(4) }
		});
		expect(await answer(ROUTES.broadcast, tempDir(), olga, huge)).toEqual({
			status: 400,
			cache: 'no-store',
			body: { error: sentence(40) }
		});
	});
});
