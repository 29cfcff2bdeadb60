import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

let cached: string | undefined;

/**
 * What /health and the console call "version": the VERSION file a deploy writes (short commit hash),
 * else the checkout's short git hash, else package.json's version.
 */
export function readVersion(projectRoot: string): string {
	if (cached) return cached;
	const versionFile = path.join(projectRoot, 'VERSION');
	if (existsSync(versionFile)) return (cached = readFileSync(versionFile, 'utf8').trim());
	try {
		const hash = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
			cwd: projectRoot,
			stdio: ['ignore', 'pipe', 'ignore']
		});
		return (cached = hash.toString().trim());
	} catch {
		const pkg = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string };
		return (cached = pkg.version);
	}
}
