import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundlePath } from '../../src/lib/server/config/node-bundles.ts';
import { PROJECT_ROOT } from '../helpers/node-process.ts';

/**
 * The web process never talks to Telegram or to the image model: the worker does. Loading grammY
 * and @google/genai anyway costs the web process memory on every start (and once did, through the
 * console's provider health reading the model check next to the admin alerts). The built server
 * bundle (what `npm start` and systemd run) is the truth about what the web process loads, so the
 * test reads it: no module of it may import these packages, statically or dynamically.
 */
const WORKER_ONLY_PACKAGES = ['grammy', '@grammyjs/', '@google/genai'];
const BUILD_DIR = path.join(PROJECT_ROOT, 'build');
// The worker's own bundle lives under build/ too (docs/development.md, "The Node bundles"); the
// web's upload checker bundle beside it is the web's and is read with the rest.
const WORKER_BUNDLE = bundlePath(PROJECT_ROOT, 'worker');

function webModules(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true, recursive: true })
		.filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
		.map((entry) => path.join(entry.parentPath, entry.name))
		.filter((file) => file !== WORKER_BUNDLE);
}

/** Import specifiers of one ES module: `from '…'`, `import '…'`, `import('…')`, `require('…')`. */
function importedSpecifiers(source: string): string[] {
	const pattern = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["'`]([^"'`]+)["'`]/g;
	return [...source.matchAll(pattern)].map((match) => match[1]!);
}

function isWorkerOnly(specifier: string): boolean {
	return WORKER_ONLY_PACKAGES.some((name) =>
		name.endsWith('/') ? specifier.startsWith(name) : specifier === name || specifier.startsWith(`${name}/`)
	);
}

describe('the built web server', () => {
	it('imports neither grammY nor @google/genai from any of its modules', () => {
		if (!existsSync(path.join(BUILD_DIR, 'index.js'))) throw new Error('build/ is missing: run `npx vite build` first');
		const modules = webModules(BUILD_DIR);
		expect(modules.length).toBeGreaterThan(10);
		expect(modules).toContain(bundlePath(PROJECT_ROOT, 'uploadChecker'));
		const offending = modules.flatMap((file) =>
			importedSpecifiers(readFileSync(file, 'utf8'))
				.filter(isWorkerOnly)
				.map((specifier) => `${path.relative(BUILD_DIR, file)} imports ${specifier}`)
		);
		expect(offending).toEqual([]);
	});

	it('reads the import forms the check relies on', () => {
		const sample = `import "grammy";\nimport { GoogleGenAI } from '@google/genai';\nconst r = await import("@grammyjs/auto-retry");\nrequire('grammy/web');\nimport x from "grammy-like";`;
		expect(importedSpecifiers(sample).filter(isWorkerOnly)).toEqual([
			'grammy',
			'@google/genai',
			'@grammyjs/auto-retry',
			'grammy/web'
		]);
	});
});
