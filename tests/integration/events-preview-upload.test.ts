import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { OperatorIdentity } from '../../src/lib/server/auth/roles.ts';
import { outfitPreviewPng } from '../../src/lib/server/events/catalogue-picture.ts';
import { outfitPreviewsDir } from '../../src/lib/server/events/outfit-previews.ts';
import { outfitPreviewUpload } from '../../src/lib/server/events/preview-upload-route.ts';
import { answerPictureUpload } from '../../src/lib/server/web/picture-upload.ts';
import { defaultOutfitSnapshot } from '../../src/lib/server/outfits/default-outfit.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { localFileStore } from '../helpers/file-store.ts';

const olga: OperatorIdentity = { id: 1, username: 'olga', displayName: null, role: 'operator' };
const vera: OperatorIdentity = { id: 2, username: 'vera', displayName: null, role: 'viewer' };

function upload(bytes: Buffer, options: { declareLength?: boolean } = {}): Request {
	const headers: Record<string, string> = { 'content-type': 'application/octet-stream' };
	if (options.declareLength !== false) headers['content-length'] = String(bytes.byteLength);
	// Streamed without a length when asked, so the byte limit is kept by reading, not by the header.
	const body = options.declareLength === false ? new Blob([new Uint8Array(bytes)]).stream() : new Uint8Array(bytes);
	return new Request('http://console.test/api/console/outfit-previews', {
		method: 'POST',
		headers,
		body,
		duplex: 'half'
	} as RequestInit);
}

async function answer(dataDir: string, who: OperatorIdentity | null, request: Request) {
	const response = await answerPictureUpload(who, request, outfitPreviewUpload(localFileStore(dataDir)));
	return {
		status: response.status,
		body: (await response.json()) as { preview?: string; url?: string; error?: string }
	};
}

const picture = (width: number, height: number, format: 'png' | 'jpeg' | 'webp' = 'png') =>
	sharp({ create: { width, height, channels: 3, background: '#ff6d00' } })
		[format]()
		.toBuffer();

describe('outfit preview upload in the catalogue editor', () => {
	const tempDir = useTempDir('previews-');

	it('stores a real picture as a 512×512 PNG named by its hash, served to the console and used in the catalogue picture', async () => {
		const dataDir = tempDir();
		for (const format of ['jpeg', 'webp'] as const) {
			const { status, body } = await answer(dataDir, olga, upload(await picture(900, 600, format)));
			expect(status).toBe(200);
			expect(body.preview).toMatch(/^[0-9a-f]{32}\.png$/);
			expect(body.url).toBe(`/api/console/files/outfit-previews/${body.preview}`);
			const stored = readFileSync(path.join(outfitPreviewsDir(dataDir), body.preview!));
			expect(await sharp(stored).metadata()).toMatchObject({ format: 'png', width: 512, height: 512 });
			const outfit = { ...defaultOutfitSnapshot('chef'), preview: body.preview! };
			expect((await outfitPreviewPng(localFileStore(dataDir), outfit)).equals(stored)).toBe(true);
		}
	});

	it('refuses a file that is not a picture, one over 2 MB and one over 4 megapixels, each with its sentence, and stores nothing', async () => {
		const dataDir = tempDir();
		const notAPicture = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
		expect(await answer(dataDir, olga, upload(notAPicture))).toEqual({
			status: 400,
			body: { error: 'This file is not a picture: upload a JPEG, PNG or WebP image.' }
		});
		const pngNamedJpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), await picture(10, 10)]);
		expect((await answer(dataDir, olga, upload(pngNamedJpeg))).body.error).toMatch(
			/^This (file is not a picture|picture cannot be read)/
		);

		const tooBig = Buffer.concat([await picture(100, 100), randomBytes(2 * 1024 * 1024)]);
		const tooBigSentence = 'This picture is larger than 2 MB: make it smaller and upload it again.';
		// 413 like every console picture upload (web/picture-upload.ts); this route used to answer 400.
		expect(await answer(dataDir, olga, upload(tooBig))).toEqual({ status: 413, body: { error: tooBigSentence } });
		expect(await answer(dataDir, olga, upload(tooBig, { declareLength: false }))).toEqual({
			status: 413,
			body: { error: tooBigSentence }
		});

		const tooManyPixels = await picture(2100, 2000);
		expect(tooManyPixels.byteLength).toBeLessThan(2 * 1024 * 1024);
		expect(await answer(dataDir, olga, upload(tooManyPixels))).toEqual({
			status: 400,
			body: {
				error: 'This picture has more than 4 megapixels: scale it down (1024×1024 is plenty) and upload it again.'
			}
		});
		expect(existsSync(outfitPreviewsDir(dataDir)) ? readdirSync(outfitPreviewsDir(dataDir)) : []).toEqual([]);
	});

	it('lets only operators and owners upload: a viewer is refused, and so is someone not signed in', async () => {
		const dataDir = tempDir();
		const bytes = await picture(200, 200);
		expect((await answer(dataDir, vera, upload(bytes))).status).toBe(403);
		expect((await answer(dataDir, null, upload(bytes))).status).toBe(401);
		expect(existsSync(outfitPreviewsDir(dataDir))).toBe(false);
	});
});
