import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBundles } from '../../scripts/build-bundles.ts';
import { BUNDLE_NODE_FLAGS, bundlePath, NODE_BUNDLES } from '../../src/lib/server/config/node-bundles.ts';
import { PROJECT_ROOT, runBuiltWorker, runTs } from '../helpers/node-process.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

// The worker and the upload checker run as bundles in production (scripts/build-bundles.ts,
// docs/development.md, "The Node bundles"); every other test of them starts the bundles too. These
// are the bundles' own promises.
describe('the Node bundles', () => {
	const tempDir = useTempDir('node-bundles-');

	it('a stack trace in its output names our .ts file and line, not the bundle', async () => {
		const dir = tempDir();
		// DATA_DIR below a file: the first mkdir of the start fails with an error nobody expects.
		writeFileSync(path.join(dir, 'a-file'), '');
		const result = await runBuiltWorker({
			env: { DATA_DIR: path.join(dir, 'a-file', 'data'), DB_PATH: path.join(dir, 'app.db') }
		});
		expect(result.code).toBe(1);
		expect(result.stderr).toContain('worker failed to start: Error: ENOTDIR');
		expect(result.stderr).toMatch(/at main \(.*src\/worker\/main\.ts:\d+:\d+\)/);
		expect(result.stderr).not.toContain('build/node/worker.js');
	});

	it('builds started together leave whole bundles and no temporary files', async () => {
		await Promise.all([buildBundles(), buildBundles(), buildBundles()]);
		const dir = path.dirname(bundlePath(PROJECT_ROOT, 'worker'));
		expect(readdirSync(dir).sort()).toEqual([
			'upload-checker.js',
			'upload-checker.js.map',
			'worker.js',
			'worker.js.map'
		]);
		// Whole: Node parses them.
		for (const name of ['worker', 'uploadChecker'] as const)
			expect(spawnSync(process.execPath, ['--check', bundlePath(PROJECT_ROOT, name)]).status, name).toBe(0);
	});

	it("a build that fails ends the command with one line that names the step, after esbuild's own errors", async () => {
		const dir = tempDir();
		// A project root without the sources: esbuild cannot find either entry.
		const entry = path.join(dir, 'build-here.mts');
		writeFileSync(
			entry,
			`import { buildBundlesOrExit } from ${JSON.stringify(path.join(PROJECT_ROOT, 'scripts', 'build-bundles.ts'))};\n` +
				`await buildBundlesOrExit(${JSON.stringify(dir)});\nconsole.log('went on');\n`
		);
		const result = await runTs(entry);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain('[ERROR] The entry point "src/worker/main.ts"');
		const last = result.stderr.trim().split('\n').at(-1);
		expect(last).toMatch(/^the Node bundles did not build: Build failed with \d+ errors?: /);
		expect(result.stdout).not.toContain('went on');
	});

	it('package.json and the systemd unit start the worker the way node-bundles.ts says', () => {
		const command = ['node', ...BUNDLE_NODE_FLAGS, NODE_BUNDLES.worker.bundle].join(' ');
		const scripts = (
			JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
				scripts: Record<string, string>;
			}
		).scripts;
		const bundling = 'node --import tsx scripts/build-bundles.ts';
		expect([scripts.build, scripts.worker]).toEqual([`vite build && ${bundling}`, `${bundling} && ${command}`]);
		const unit = readFileSync(path.join(PROJECT_ROOT, 'deploy', 'systemd', 'sticker-bot.service'), 'utf8');
		expect(unit).toContain(`\nExecStart=/usr/bin/${command}\n`);
	});
});
