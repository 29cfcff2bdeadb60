import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { cookiesFrom, postForm, requestWeb, useBuiltWeb } from '../helpers/built-web.ts';
import { bucketStore, useS3Server } from '../helpers/s3-server.ts';
import { insertOperator, TEST_PASSWORD } from './console-fixtures.ts';

// The console's pictures come through the web process from the bucket, with the same checks as
// from DATA_DIR: signed in, and only an artefact's shape of path (never a selfie). Needs `npx vite build`.

describe('the console serves files from an S3 bucket over HTTP', () => {
	const builtWeb = useBuiltWeb('file-store-console-');
	const s3Server = useS3Server();

	it('a sticker for a signed-in operator; 401 without signing in; the selfie and a missing file are 404', async () => {
		const server = await s3Server();
		const store = bucketStore(server);
		const sticker = Buffer.from('89504e470d0a1a0a-a-sticker', 'utf8');
		await store.put('sessions/tok1/stickers/sticker_1.png', sticker);
		await store.put('sessions/tok1/selfie_ab.jpg', 'the guest’s face');
		const { web, db } = await builtWeb.start({ ...server.env, AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '' });
		await insertOperator(db, systemClock, 'olga', 'operator');
		const signedIn = await postForm(web, '/console/login', { username: 'olga', password: TEST_PASSWORD });
		const cookie = cookiesFrom(signedIn);

		expect((await requestWeb(web, '/api/console/files/sessions/tok1/stickers/sticker_1.png')).status).toBe(401);
		const answer = await requestWeb(web, '/api/console/files/sessions/tok1/stickers/sticker_1.png', { cookie });
		expect([answer.status, answer.headers.get('content-type'), answer.headers.get('cache-control')]).toEqual([
			200,
			'image/png',
			'private, no-store'
		]);
		expect(Buffer.from(await answer.arrayBuffer()).equals(sticker)).toBe(true);
		expect((await requestWeb(web, '/api/console/files/sessions/tok1/selfie_ab.jpg', { cookie })).status).toBe(404);
		expect((await requestWeb(web, '/api/console/files/sessions/tok1/stickers/sticker_2.png', { cookie })).status).toBe(
			404
		);
	}, 60_000);
});
