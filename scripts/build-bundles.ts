// The product's Node processes that Vite does not build, as production runs them: the worker
// (build/node/worker.js) and the web's upload checker (build/node/upload-checker.js), each one ES
// module with a source map beside it (src/lib/server/config/node-bundles.ts). esbuild bundles both
// in a few tenths of a second; packages under node_modules stay outside and load as usual. Against
// the sources run through tsx's loader, a worker's start costs about half the CPU (1.2 s against
// 2.2 s to "worker started" on our 2-core box) and some 50 MB less memory: no loader thread, no
// per-file resolution and transform. `npm run build` runs this after the web build (whose adapter
// empties build/ first); `npm start`, the browser tests and the Node-side tests run it before they
// start anything, so a bundle is never older than the code (docs/development.md, "The Node bundles").
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type OutputFile } from 'esbuild';
import { bundlePath, NODE_BUNDLES, type NodeBundle } from '../src/lib/server/config/node-bundles.ts';
import { errorText } from '../src/lib/server/errors/error-text.ts';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Bundles every Node process of NODE_BUNDLES; resolves with the files written. */
export async function buildBundles(root: string = projectRoot): Promise<string[]> {
	const names = Object.keys(NODE_BUNDLES) as NodeBundle[];
	const built = await Promise.all(names.map((name) => bundle(root, name)));
	return built.flat();
}

/**
 * For a command that cannot go on without the bundles (this script, `npm start`): builds them, or
 * says which step failed and exits 1. esbuild has printed each error's file and line already, so
 * its message is folded to one line here.
 */
export async function buildBundlesOrExit(root: string = projectRoot): Promise<string[]> {
	try {
		return await buildBundles(root);
	} catch (error) {
		console.error(`the Node bundles did not build: ${errorText(error, 2000)}`);
		process.exit(1);
	}
}

async function bundle(root: string, name: NodeBundle): Promise<string[]> {
	const result = await build({
		absWorkingDir: root,
		entryPoints: [NODE_BUNDLES[name].entry],
		outfile: bundlePath(root, name),
		bundle: true,
		platform: 'node',
		format: 'esm',
		target: 'node20',
		packages: 'external',
		sourcemap: 'linked',
		// The sources are on disk beside the bundle; stack traces need only the mappings.
		sourcesContent: false,
		write: false,
		logLevel: 'error'
	});
	return writeInPlace(result.outputFiles);
}

/**
 * Each file is written under a temporary name and renamed into place, so a process starting
 * meanwhile (or another build: the browser tests start three products at once) reads an old
 * bundle or the new one, never half of one. The map goes first: once a bundle is in place, the
 * map it names is there too. The temporary name carries the pid: another process's build writes
 * its own; two builds in this process cannot interleave here (it is synchronous).
 */
function writeInPlace(files: OutputFile[]): string[] {
	const mapsFirst = [...files].sort((a, b) => Number(b.path.endsWith('.map')) - Number(a.path.endsWith('.map')));
	for (const file of mapsFirst) {
		mkdirSync(path.dirname(file.path), { recursive: true });
		const temporary = `${file.path}.${process.pid}.tmp`;
		writeFileSync(temporary, file.contents);
		renameSync(temporary, file.path);
	}
	return files.map((file) => file.path);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const started = Date.now();
	void buildBundlesOrExit().then((files) =>
		console.log(
			`bundled: ${files
				.filter((file) => file.endsWith('.js'))
				.map((file) => path.relative(projectRoot, file))
				.join(', ')} (${Date.now() - started} ms)`
		)
	);
}
