// npm start's build step: builds the web app only when its sources changed since the last build.
// The fingerprint is a SHA-256 over the path and content of every build input (src/, static/, the
// build configs and the lock file), kept beside the build in build/.source-fingerprint; a second
// start with nothing changed skips the ~40 s build. The build's own chatter (adapter banners, a
// hint to run `npm run preview`) is kept off the terminal unless the build fails.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const INPUT_DIRS = ['src', 'static'];
const INPUT_FILES = ['package-lock.json', 'svelte.config.js', 'vite.config.ts', 'tsconfig.json'];
// Never read by the web build: the worker's own files and the unit specs. (The generated Prisma
// clients under src/ are inputs: the web bundles them, and they change with prisma/schema.prisma.)
const SKIPPED = [/\.spec\.ts$/, /^src\/worker\//];
const FINGERPRINT_FILE = path.join(projectRoot, 'build', '.source-fingerprint');

const say = (text: string) => process.stdout.write(`\u001b[1m[setup]\u001b[0m ${text}\n`);

function inputFiles(root: string): string[] {
	const files = INPUT_FILES.filter((file) => existsSync(path.join(root, file)));
	for (const dir of INPUT_DIRS.filter((d) => existsSync(path.join(root, d)))) {
		for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })) {
			if (!entry.isFile()) continue;
			const file = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
			if (!SKIPPED.some((pattern) => pattern.test(file))) files.push(file);
		}
	}
	return files.sort();
}

export function sourceFingerprint(root: string = projectRoot): string {
	const hash = createHash('sha256');
	for (const file of inputFiles(root))
		hash
			.update(file)
			.update('\0')
			.update(readFileSync(path.join(root, file)))
			.update('\0');
	return hash.digest('hex');
}

function main(): void {
	const fingerprint = sourceFingerprint();
	const built = existsSync(path.join(projectRoot, 'build', 'index.js')) && existsSync(FINGERPRINT_FILE);
	if (built && readFileSync(FINGERPRINT_FILE, 'utf8').trim() === fingerprint) {
		say('web app is up to date (no source changed since the last build)');
		return;
	}
	say('building the web app (about a minute)');
	const started = Date.now();
	const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'error'], {
		cwd: projectRoot,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe']
	});
	if (build.status !== 0) {
		process.stdout.write(build.stdout ?? '');
		process.stderr.write(build.stderr ?? '');
		console.error('the web app did not build: the output above says why');
		process.exit(build.status ?? 1);
	}
	writeFileSync(FINGERPRINT_FILE, `${fingerprint}\n`);
	say(`web app built in ${Math.round((Date.now() - started) / 1000)} s`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
