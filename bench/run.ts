import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBundles } from '../scripts/build-bundles.ts';

/**
 * `npm run bench`: runs every bench/*.bench.ts (or a subset named on the command line) one after
 * another in its own Node process, so one benchmark's memory and warm caches never colour the
 * next. Each benchmark measures its own baseline in the same run and prints figures and ratios.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
// Names pick benchmarks; `--flags` go to each one (`npm run bench -- telegram-send-budget --quick`).
const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const flags = process.argv.slice(2).filter((arg) => arg.startsWith('--'));
const files = readdirSync(here)
	.filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.startsWith('_'))
	.filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
	.sort();

if (files.length === 0) {
	console.error(`no benchmark matches ${wanted.join(', ')}`);
	process.exit(2);
}
// Benchmarks start the worker and the upload checker production runs: bundled from the sources first.
await buildBundles();
let failed = 0;
for (const file of files) {
	console.log(`\n━━ ${file} ${'━'.repeat(Math.max(0, 70 - file.length))}`);
	const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(here, file), ...flags], {
		stdio: 'inherit',
		cwd: path.dirname(here)
	});
	if (result.status !== 0) {
		failed++;
		console.log(`✗ ${file} exited with ${result.status ?? result.signal}`);
	}
}
console.log(`\nbenchmarks: ${files.length - failed} ran, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
