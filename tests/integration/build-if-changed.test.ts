import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFingerprint } from '../../scripts/build-if-changed.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

/**
 * `npm start` builds the web app only when a build input changed (scripts/build-if-changed.ts):
 * the fingerprint must move with every file the web bundles and stay put for the worker's files,
 * unit specs and file times (a fresh checkout or a `touch` is no change).
 */
describe('the web build fingerprint', () => {
	const tempDir = useTempDir('build-fingerprint-');

	function project(): { root: string; write: (file: string, text: string) => void } {
		const root = tempDir();
		const write = (file: string, text: string) => {
			mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
			writeFileSync(path.join(root, file), text);
		};
		write('package-lock.json', '{}');
		write('svelte.config.js', 'export default {};');
		write('src/routes/+page.svelte', '<h1>Hi</h1>');
		write('src/lib/server/rule.ts', 'export const a = 1;');
		write('src/worker/main.ts', 'run();');
		write('static/favicon.svg', '<svg/>');
		return { root, write };
	}

	it('is the same for the same sources, whenever they were written', () => {
		const { root, write } = project();
		const before = sourceFingerprint(root);
		write('src/routes/+page.svelte', '<h1>Hi</h1>'); // rewritten, same bytes
		expect(sourceFingerprint(root)).toBe(before);
	});

	it('moves with a page, a server module, a static file or the lock file', () => {
		for (const file of [
			'src/routes/+page.svelte',
			'src/lib/server/rule.ts',
			'static/favicon.svg',
			'package-lock.json'
		]) {
			const { root, write } = project();
			const before = sourceFingerprint(root);
			write(file, 'changed');
			expect(sourceFingerprint(root), file).not.toBe(before);
		}
		const { root, write } = project();
		const before = sourceFingerprint(root);
		write('src/routes/new/+page.svelte', '<p>new page</p>');
		expect(sourceFingerprint(root)).not.toBe(before);
	});

	it('ignores the worker’s own files and unit specs, which the web build never reads', () => {
		const { root, write } = project();
		const before = sourceFingerprint(root);
		write('src/worker/main.ts', 'runFaster();');
		write('src/lib/server/rule.spec.ts', 'test();');
		expect(sourceFingerprint(root)).toBe(before);
	});
});
