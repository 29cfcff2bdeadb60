import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import busboy from 'busboy';
import { afterEach, describe, expect, it } from 'vitest';
import { closeWithoutResets, keepConnectionsLikeAFrontEnd } from '../../tools/http-front.ts';
import { drawFromPrompt } from '../../tools/fake-gemini/draw.ts';
import { useGenerationWorld, waitForJobStatus } from './generation-harness.ts';

/** A request the stopped worker still has in flight finishes; one still open after this is cut. */
const STAND_IN_CLOSE_GRACE_MS = 1_000;

/**
 * A small fake of OpenAI's images API: POST /v1/images/edits (multipart, Bearer key) answering
 * data[0].b64_json with a real drawing of the reference photo, and usage tokens. The first sheet
 * request gets a 429 to show it is recorded and retried.
 */
async function startFakeOpenAi(): Promise<{
	url: string;
	requests: { auth: string; prompt: string; images: number }[];
	server: Server;
}> {
	const requests: { auth: string; prompt: string; images: number }[] = [];
	let limited = false;
	let guestPhotos: Buffer[] = [];
	const server = createServer((req, res) => {
		const fields: Record<string, string> = {};
		const images: Buffer[] = [];
		const bb = busboy({ headers: req.headers });
		bb.on('field', (name, value) => (fields[name] = value));
		bb.on('file', (_name, stream) => {
			const chunks: Buffer[] = [];
			stream.on('data', (c: Buffer) => chunks.push(c));
			stream.on('end', () => images.push(Buffer.concat(chunks)));
		});
		bb.on('close', async () => {
			requests.push({ auth: req.headers.authorization ?? '', prompt: fields.prompt ?? '', images: images.length });
			if (!limited && / columns × /.test(fields.prompt ?? '')) {
				limited = true;
				res.writeHead(429, { 'content-type': 'application/json' });
				return res.end(
					JSON.stringify({
						error: { message: 'Rate limit reached for images per min', type: 'requests', code: 'rate_limit_exceeded' }
					})
				);
			}
			// The guest's photo (a JPEG, sent with the anchor request) is the face of every later drawing too:
			// a model draws the character; pasting the anchor picture, sheet colour and all, as a face would
			// leave a see-through hole in every figure, which the quality gate refuses.
			const sent = images.filter((i) => i[0] === 0xff && i[1] === 0xd8);
			if (sent.length > 0) guestPhotos = sent;
			const photos = guestPhotos;
			const [width, height] = (fields.size ?? '1024x1024').split('x').map(Number) as [number, number];
			const png = await drawFromPrompt(fields.prompt ?? '', photos.length ? photos : images.slice(0, 1), {
				width,
				height
			});
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(
				JSON.stringify({
					created: 1,
					data: [{ b64_json: png.toString('base64') }],
					usage: { input_tokens: 420, output_tokens: 1056, total_tokens: 1476 }
				})
			);
		});
		req.pipe(bb);
	});
	keepConnectionsLikeAFrontEnd(server);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests, server };
}

describe('generation through the openai provider and a fake images API', () => {
	let server: Server | undefined;
	// Registered before the world so it runs after the world's own afterEach (vitest runs after-hooks
	// as a stack): the worker loop stops first, and a request it still has in flight gets its answer.
	afterEach(async () => {
		if (server) await closeWithoutResets(server, STAND_IN_CLOSE_GRACE_MS);
		server = undefined;
	});
	const worlds = useGenerationWorld('gen-openai-');

	it('draws anchor and sheets through the images API, records usage with per-token image cost, delivers the set', async () => {
		const fake = await startFakeOpenAi();
		server = fake.server;
		const world = await worlds.open();
		const jobId = await world.queueJob();
		await worlds.startLoop({ IMAGE_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.url });
		expect(await waitForJobStatus(world.db, jobId, ['done', 'failed'], 90_000)).toBe('done');
		expect(fake.requests.every((r) => r.auth === 'Bearer sk-test')).toBe(true);
		const rows = await world.db.apiUsage.findMany({ where: { jobId }, orderBy: { id: 'asc' } });
		const paid = rows.filter((r) => r.provider === 'openai' && r.kind === 'image');
		expect(paid.map((r) => [r.stage, r.ok, r.httpStatus])).toEqual([
			['anchor', 1, 200],
			['sheet', 0, 429],
			['sheet', 1, 200],
			['sheet', 1, 200]
		]);
		expect(paid[0]!.estCostUsd).toBeCloseTo((420 * 10 + 1056 * 40) / 1e6, 6);
		expect(paid[1]!.estCostUsd).toBe(0);
		const job = await world.db.job.findUniqueOrThrow({ where: { jobId } });
		expect(job.providerUsed).toBe('openai');
		expect((await world.emulator.control.getStickerSet(job.packName!))?.stickers).toHaveLength(12);
	}, 120_000);
});
