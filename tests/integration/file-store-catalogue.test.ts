import { existsSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { OperatorIdentity } from '../../src/lib/server/auth/roles.ts';
import { readArtefact } from '../../src/lib/server/console/artefact-files.ts';
import {
	cataloguePicture,
	cataloguePictureKey,
	outfitPreviewPng
} from '../../src/lib/server/events/catalogue-picture.ts';
import { outfitPreviewUpload } from '../../src/lib/server/events/preview-upload-route.ts';
import { answerPictureUpload } from '../../src/lib/server/web/picture-upload.ts';
import { defaultOutfitSnapshot } from '../../src/lib/server/outfits/default-outfit.ts';
import { bucketStore, useS3Server } from '../helpers/s3-server.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

// The web process stores an outfit preview and the worker's bot draws the catalogue picture from
// it: on a bucket both see the same files, whichever host they run on.

const olga: OperatorIdentity = { id: 1, username: 'olga', displayName: null, role: 'operator' };

describe('outfit previews and catalogue pictures on an S3 bucket', () => {
	const tempDir = useTempDir('file-store-catalogue-');
	const s3Server = useS3Server();

	it('an uploaded preview lands in the bucket, the console serves it, the catalogue picture is drawn from it and kept there', async () => {
		const server = await s3Server();
		const store = bucketStore(server);
		const webDataDir = tempDir();
		const workerDataDir = tempDir();
		const picture = await sharp({ create: { width: 700, height: 500, channels: 3, background: '#1e88e5' } })
			.jpeg()
			.toBuffer();
		const request = new Request('http://console.test/api/console/outfit-previews', {
			method: 'POST',
			headers: { 'content-length': String(picture.length) },
			body: new Uint8Array(picture)
		});

		const response = await answerPictureUpload(olga, request, outfitPreviewUpload(store));
		const { preview } = (await response.json()) as { preview: string };
		expect(response.status).toBe(200);
		const stored = await store.get(`outfit-previews/${preview}`);
		expect(await sharp(stored!).metadata()).toMatchObject({ format: 'png', width: 512, height: 512 });
		expect((await readArtefact(store, `outfit-previews/${preview}`))?.equals(stored!)).toBe(true);
		expect(existsSync(path.join(webDataDir, 'outfit-previews'))).toBe(false);

		const outfit = { ...defaultOutfitSnapshot('chef'), preview };
		expect((await outfitPreviewPng(store, outfit)).equals(stored!)).toBe(true);
		const catalogue = { eventId: 3, version: 2, outfits: [outfit, defaultOutfitSnapshot('pirate')] };
		const sheet = await cataloguePicture(store, catalogue);
		expect(cataloguePictureKey(catalogue)).toBe('catalogues/event-3-v2.jpg');
		expect((await store.get('catalogues/event-3-v2.jpg'))?.equals(sheet)).toBe(true);
		expect((await cataloguePicture(store, catalogue)).equals(sheet)).toBe(true); // drawn once per version
		expect(existsSync(path.join(workerDataDir, 'catalogues'))).toBe(false);
	});
});
