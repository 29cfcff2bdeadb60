import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createKiosk } from '../../src/lib/server/kiosk/kiosk-keys.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { ADAPTER_BODY_SIZE_LIMIT } from '../../src/lib/server/web/body-limit.ts';
import { postForm, postJson, readRssBytes, useBuiltWeb, type BuiltWeb } from '../helpers/built-web.ts';
import { PROJECT_ROOT } from '../helpers/node-process.ts';
import { untilAnswered } from '../helpers/until-answered.ts';

const MB = 1024 * 1024;
const PIECE = Buffer.alloc(MB, 'a');

/**
 * Posts `size` bytes (1 MB at a time, declared or chunked) and resolves with the status once answered.
 * On a kept-alive connection, as browsers and Caddy send: Node's server closes a `Connection: close`
 * request's socket as soon as the 413 is out, while the body still arrives, and the reset that makes
 * often beats the 413 to the client (EPIPE: about 25 of 60 such requests on a quiet machine, and one
 * request ten times in a row in a busy fresh-clone run). Kept alive, the server reads the rest and
 * drops it: 60 of 60 answered.
 */
function postBytes(
	web: BuiltWeb,
	pathname: string,
	options: { size: number; contentType: string; chunked: boolean; cookie?: string }
): Promise<number> {
	return new Promise((resolve, reject) => {
		const headers: Record<string, string> = {
			'content-type': options.contentType,
			origin: web.origin,
			connection: 'keep-alive'
		};
		if (!options.chunked) headers['content-length'] = String(options.size);
		if (options.cookie) headers.cookie = options.cookie;
		const request = http.request(`${web.base}${pathname}`, { method: 'POST', headers, agent: false });
		let answered = false;
		request.on('response', (response) => {
			answered = true;
			response.resume();
			resolve(response.statusCode!);
			request.destroy();
		});
		request.on('error', (error) => {
			if (!answered) reject(error);
		});
		let sent = 0;
		const writeMore = (): void => {
			while (!answered && sent < options.size) {
				const piece = PIECE.subarray(0, Math.min(MB, options.size - sent));
				sent += piece.length;
				if (!request.write(piece)) {
					request.once('drain', writeMore);
					return;
				}
			}
			if (!answered) request.end();
		};
		writeMore();
	});
}

describe('request body size per route (over HTTP)', () => {
	const builtWeb = useBuiltWeb('web-body-size-');
	let kioskKey = '';
	async function start(): Promise<BuiltWeb> {
		const { web, db } = await builtWeb.start();
		kioskKey = (await createKiosk(db, systemClock, 'hall-a')).key;
		return web;
	}

	it(
		'finding 2: 20 parallel 19 MB bodies to form and JSON routes get 413 before buffering; RSS grows < 50 MB',
		{ timeout: 180_000 },
		async () => {
			const web = await start();
			// Warm every route up first, so the baseline already holds the code that answers them.
			await postForm(web, '/console/login', { username: 'nobody', password: 'warm-up-password' });
			await postForm(web, '/', { name: 'warm' });
			await postJson(web, '/api/kiosk/key', { key: 'kk_warm-up-key-that-is-not-valid' });
			await postJson(web, '/api/trpc/console.pause', { reason: 'warm-up' });
			const rssBytes = () => readRssBytes(web.pid);
			const baseline = rssBytes();

			let peak = baseline;
			const sampler = setInterval(() => (peak = Math.max(peak, rssBytes())), 20);
			const targets: [string, string][] = [
				['/console/login', 'application/x-www-form-urlencoded'],
				['/', 'application/x-www-form-urlencoded'],
				['/api/kiosk/key', 'application/json'],
				['/api/trpc/console.pause', 'application/json']
			];
			const statuses = await Promise.all(
				Array.from({ length: 20 }, (_, i) => {
					const [pathname, contentType] = targets[i % targets.length]!;
					return untilAnswered(() => postBytes(web, pathname, { size: 19 * MB, contentType, chunked: i % 2 === 1 }));
				})
			).finally(() => clearInterval(sampler));
			peak = Math.max(peak, rssBytes());

			expect((peak - baseline) / MB).toBeLessThan(50);
			expect(statuses).toEqual(Array.from({ length: 20 }, () => 413));
		}
	);

	it(
		'finding 2: small bodies, declared or chunked, still reach their route; only the photo, outfit-preview and broadcast-picture uploads take more than 64 KB',
		{ timeout: 60_000 },
		async () => {
			const web = await start();
			const chunkedKey = await postBytes(web, '/api/kiosk/key', {
				size: 1000,
				contentType: 'application/json',
				chunked: true
			});
			expect(chunkedKey).toBe(400); // 1000 × "a" is not JSON: the route itself answered
			const tooLarge = await postForm(web, '/console/login', { username: 'olga', password: 'x'.repeat(70 * 1024) });
			expect(tooLarge.status).toBe(413);
			expect(await tooLarge.text()).toMatch(/too large/i);
			// The JSON APIs say it in their own error shapes.
			const padding = 'x'.repeat(70 * 1024);
			const kioskAnswer = await postJson(web, '/api/kiosk/key', { key: padding });
			expect(kioskAnswer.status).toBe(413);
			expect(await kioskAnswer.json()).toEqual({ error: 'too_large', message: expect.stringMatching(/64 KB/) });
			const apiAnswer = await postJson(
				web,
				'/api/v1/leads/1/status',
				{ status: 'deal', padding },
				{ headers: { authorization: 'Bearer skt_not-a-real-token' } }
			);
			expect(apiAnswer.status).toBe(413);
			expect(await apiAnswer.json()).toEqual({ error: { code: 'too_large', message: expect.stringMatching(/64 KB/) } });

			// The selfie route reads up to 15 MB itself: 1 MB is past the 64 KB cap and reaches it (unknown session → 404).
			const photo = await postBytes(web, '/api/kiosk/sessions/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/photo', {
				size: MB,
				contentType: 'image/jpeg',
				chunked: false,
				cookie: `kiosk_key=${kioskKey}`
			});
			expect(photo).toBe(404);
			// The catalogue editor's preview upload reads up to 2 MB itself: 1 MB reaches it (not signed in → 401).
			const preview = await postBytes(web, '/api/console/outfit-previews', {
				size: MB,
				contentType: 'application/octet-stream',
				chunked: false
			});
			expect(preview).toBe(401);
			// So does a broadcast's picture, up to 10 MB (broadcast-picture-size.test.ts signs in and stores one).
			const picture = await postBytes(web, '/api/console/broadcasts/image', {
				size: MB,
				contentType: 'application/octet-stream',
				chunked: false
			});
			expect(picture).toBe(401);
		}
	);

	it('the systemd unit gives the web process the same outer body limit as npm start', () => {
		const unit = readFileSync(path.join(PROJECT_ROOT, 'deploy/systemd/sticker-api.service'), 'utf8');
		expect(unit).toMatch(new RegExp(`^Environment=BODY_SIZE_LIMIT=${ADAPTER_BODY_SIZE_LIMIT}$`, 'm'));
	});
});
