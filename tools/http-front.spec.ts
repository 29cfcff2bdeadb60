import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeGemini } from './fake-gemini/server.ts';
import { FRONT_END_KEEP_ALIVE_MS } from './http-front.ts';
import { createTelegramEmulator } from './telegram-emulator/server.ts';

/**
 * The stand-ins' connections behave like a real front end's: an idle keep-alive connection outlives
 * a client's own idle timeout (so a reused socket is never one the server just closed), and closing
 * a stand-in lets a request in flight finish instead of resetting it.
 */
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
	for (const close of closers.splice(0).reverse()) await close();
});

const PASSPORT = {
	contents: [{ role: 'user', parts: [{ text: 'Describe the person in the photo.' }] }],
	generationConfig: { responseMimeType: 'application/json' }
};

/** The `Keep-Alive: timeout=N` a server announces, which Node's clients use (less 1 s) as their idle timeout. */
async function announcedKeepAliveSeconds(url: string): Promise<number> {
	const response = await fetch(url);
	await response.arrayBuffer();
	const header = response.headers.get('keep-alive') ?? '';
	return Number(/timeout=(\d+)/.exec(header)?.[1]);
}

/**
 * The race itself, made deterministic: the server has closed the idle connection at the moment the
 * client writes its next request on it (here: it drops the connection when that request arrives).
 */
async function serverDroppingReusedConnections(): Promise<Server> {
	const server = createServer((req, res) => {
		const served = (req.socket as { served?: number }).served ?? 0;
		(req.socket as { served?: number }).served = served + 1;
		if (served > 0) return void req.socket.destroy();
		res.end('ok');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	closers.push(() => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
	return server;
}

describe('the stand-ins keep idle connections like a real front end', () => {
	it('a socket the server closed as the client reuses it fails the request: the race the window avoids', async () => {
		const server = await serverDroppingReusedConnections();
		// grammY's client: a keep-alive http.Agent; one socket, so the second call reuses the first's.
		const agent = new Agent({ keepAlive: true, maxSockets: 1 });
		closers.push(async () => agent.destroy());
		const get = () =>
			new Promise<string>((resolve) => {
				const req = request({ port: (server.address() as AddressInfo).port, host: '127.0.0.1', agent });
				req.on('response', (res) => (res.resume(), res.on('end', () => resolve('answered'))));
				req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
				req.end();
			});
		expect(await get()).toBe('answered');
		expect(await get()).toBe('ECONNRESET');
	});

	it('the Telegram emulator and the fake Gemini announce a keep-alive window far beyond Node’s 5 s', async () => {
		const emulator = await createTelegramEmulator();
		closers.push(() => emulator.close());
		const gemini = await createFakeGemini({ models: ['text-model'] });
		closers.push(() => gemini.close());
		const window = FRONT_END_KEEP_ALIVE_MS / 1000;
		expect(window).toBeGreaterThanOrEqual(60);
		expect(await announcedKeepAliveSeconds(`${emulator.url}/_emulator/config`)).toBe(window);
		expect(await announcedKeepAliveSeconds(`${gemini.url}/v1beta/models`)).toBe(window);
	});

	it('closing the fake Gemini lets a generate call in flight answer instead of resetting it', async () => {
		let release = () => {};
		let asked = () => {};
		const inFlight = new Promise<void>((resolve) => (asked = resolve));
		const sleep = () => (asked(), new Promise<void>((resolve) => (release = resolve)));
		const gemini = await createFakeGemini({ models: ['text-model'], latencyMs: 1, sleep });
		const call = new Promise<number>((resolve, reject) => {
			const body = JSON.stringify(PASSPORT);
			const req = request(`${gemini.url}/v1beta/models/text-model:generateContent`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' }
			});
			req.on('response', (res) => (res.resume(), res.on('end', () => resolve(res.statusCode ?? 0))));
			req.on('error', reject);
			req.end(body);
		});
		await inFlight;
		const closed = gemini.close();
		release();
		expect(await call).toBe(200);
		await closed;
	});
});
