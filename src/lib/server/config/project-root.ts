import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/**
 * The project root: the nearest ancestor of this module that holds `prisma/schema.prisma`.
 * Found from the module's own location (not the cwd) so the web and worker bundles under build/
 * and the CLI scripts run by tsx all resolve relative paths like DB_PATH the same way.
 */
export function findProjectRoot(start: string = path.dirname(fileURLToPath(import.meta.url))): string {
	if (cached) return cached;
	for (let dir = start; ; dir = path.dirname(dir)) {
		if (existsSync(path.join(dir, 'prisma', 'schema.prisma'))) return (cached = dir);
		if (path.dirname(dir) === dir) break;
	}
	// A deployment without the source tree: the cwd is the only sensible anchor left.
	return (cached = process.cwd());
}
