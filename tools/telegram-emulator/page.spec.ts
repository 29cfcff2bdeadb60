import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml } from './page-server.ts';
import type { TelegramEmulator } from './server.ts';
import { startEmulator } from './test-support.ts';

let emulator: TelegramEmulator;

beforeAll(async () => {
	emulator = await startEmulator();
});

afterAll(async () => {
	await emulator.close();
});

async function get(path: string): Promise<{ status: number; text: string; type: string | null }> {
	const response = await fetch(`${emulator.url}${path}`);
	return { status: response.status, text: await response.text(), type: response.headers.get('content-type') };
}

function configOf(html: string): Record<string, unknown> {
	const content = /<meta name="emulator-config" content="([^"]*)"/.exec(html)?.[1] ?? '';
	const decoded = content
		.replaceAll('&quot;', '"')
		.replaceAll('&lt;', '<')
		.replaceAll('&gt;', '>')
		.replaceAll('&#39;', "'")
		.replaceAll('&amp;', '&');
	return JSON.parse(decoded) as Record<string, unknown>;
}

describe('the chat page', () => {
	it('serves the page with its settings for /, /start/<payload>, /addstickers/<name> and /<bot>', async () => {
		const home = await get('/');
		expect(home.status).toBe(200);
		expect(home.type).toContain('text/html');
		expect(configOf(home.text)).toMatchObject({
			bot_username: 'sticker_kiosk_bot',
			start_payload: null,
			sales_group_id: -1001000000001
		});
		expect(configOf((await get('/start/abc123')).text)).toMatchObject({ start_payload: 'abc123' });
		expect(configOf((await get('/addstickers/ann_by_sticker_kiosk_bot')).text)).toMatchObject({
			sticker_set: 'ann_by_sticker_kiosk_bot'
		});
		expect((await get('/sticker_kiosk_bot?start=abc')).status).toBe(200);
	});

	it('escapes what comes from the request', async () => {
		const page = await get('/start/%3Cscript%3Ealert(1)%3C%2Fscript%3E%22');
		expect(page.text).not.toContain('<script>alert');
		expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;\\&quot;');
		expect(configOf(page.text)).toMatchObject({ start_payload: '<script>alert(1)</script>"' });
		expect(escapeHtml(`<a href="x">'&`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;');
	});

	it('serves its assets and nothing else', async () => {
		const script = await get('/assets/app.js');
		expect(script.status).toBe(200);
		expect(script.type).toContain('text/javascript');
		expect((await get('/assets/app.css')).type).toContain('text/css');
		expect((await get('/assets/..%2Fserver.ts')).status).toBe(404);
		expect((await get('/assets/index.html')).status).toBe(404);
		expect((await get('/somewhere/else')).status).toBe(404);
		expect((await get('/%E0%A4%A')).status).toBe(404);
	});

	it('streams events to the page', async () => {
		const controller = new AbortController();
		const response = await fetch(`${emulator.url}/_emulator/events`, { signal: controller.signal });
		expect(response.headers.get('content-type')).toContain('text/event-stream');
		const reader = (response.body as ReadableStream<Uint8Array>).getReader();
		await emulator.control.sendUserMessage({ user: { first_name: 'Eve' }, text: 'hello' });
		let received = '';
		while (!received.includes('event: message')) {
			const chunk = await reader.read();
			received += new TextDecoder().decode(chunk.value);
		}
		expect(received).toMatch(/event: message\ndata: \{"type":"message","bot":"sticker_kiosk_bot"/);
		controller.abort();
	});
});
