import { readFile, readdir } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EmulatorCore } from './core.ts';

// The guest/group page: static files from page/, plus index.html with the emulator's settings
// written into a <meta> tag. Anything taken from the request is HTML-escaped on the way in.

const PAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), 'page');
const ASSET_PATTERN = /^[a-z0-9-]+\.(js|css|svg)$/;
const CONTENT_TYPES: Record<string, string> = {
	js: 'text/javascript; charset=utf-8',
	css: 'text/css; charset=utf-8',
	svg: 'image/svg+xml'
};

export function escapeHtml(text: string): string {
	return text
		.replaceAll('&', '&amp;')
		.replaceAll('<', '&lt;')
		.replaceAll('>', '&gt;')
		.replaceAll('"', '&quot;')
		.replaceAll("'", '&#39;');
}

export interface PageConfig {
	bot_username: string;
	sales_group_id: number;
	sales_group_title: string;
	group_privacy: boolean;
	/** From /start/<payload>; `?start=` is read by the page itself. */
	start_payload: string | null;
	/** From /addstickers/<name>. */
	sticker_set: string | null;
}

export function renderIndexHtml(template: string, config: PageConfig): string {
	return template
		.replaceAll('{{CONFIG}}', escapeHtml(JSON.stringify(config)))
		.replaceAll('{{BOT_USERNAME}}', escapeHtml(config.bot_username));
}

/** Paths that open the page: /, /start/<payload>, /addstickers/<name>, /<bot_username>. */
function pageConfigFor(core: EmulatorCore, path: string): PageConfig | undefined {
	const bot = core.store.primaryBot();
	const group = core.store.salesGroup();
	const config: PageConfig = {
		bot_username: bot.username,
		sales_group_id: group.id,
		sales_group_title: group.title,
		group_privacy: core.settings.groupPrivacy,
		start_payload: null,
		sticker_set: null
	};
	const [first, second, ...rest] = path.split('/').filter(Boolean).map(decodeURIComponent);
	if (first === undefined) return config;
	if (rest.length > 0) return undefined;
	if (first === 'start' && second !== undefined) return { ...config, start_payload: second };
	if (first === 'addstickers' && second !== undefined) return { ...config, sticker_set: second };
	if (second === undefined && core.store.findBot(first)) return config; // like t.me/<bot>?start=…
	return undefined;
}

export async function handlePageRequest(core: EmulatorCore, res: ServerResponse, path: string): Promise<void> {
	const asset = /^\/assets\/([^/]+)$/.exec(path)?.[1];
	if (asset !== undefined) return serveAsset(res, asset);
	let config: PageConfig | undefined;
	try {
		config = pageConfigFor(core, path);
	} catch {
		config = undefined; // a malformed %-escape
	}
	if (!config) return sendText(res, 404, 'Not Found');
	const template = await readFile(join(PAGE_DIR, 'index.html'), 'utf8');
	const html = renderIndexHtml(template, config);
	res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
	res.end(html);
}

async function serveAsset(res: ServerResponse, name: string): Promise<void> {
	const allowed = ASSET_PATTERN.test(name) && (await readdir(PAGE_DIR)).includes(name);
	if (!allowed) return sendText(res, 404, 'Not Found');
	const body = await readFile(join(PAGE_DIR, name));
	const ext = name.split('.').pop() ?? '';
	res.writeHead(200, {
		'content-type': CONTENT_TYPES[ext] ?? 'application/octet-stream',
		'cache-control': 'no-cache'
	});
	res.end(body);
}

function sendText(res: ServerResponse, status: number, text: string): void {
	res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
	res.end(text);
}
