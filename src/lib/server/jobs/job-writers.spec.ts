import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * `jobs` has one writer (docs/development.md): job.repository.ts and job-claims.repository.ts. The
 * guarded UPDATE they share (job-guards.ts) is theirs alone; anything else that imported it could
 * change a job's status outside the named steps.
 */
const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const WRITERS = ['lib/server/jobs/job-claims.repository.ts', 'lib/server/jobs/job.repository.ts'];

describe('the jobs writer', () => {
	it('job-guards.ts is imported by the two job repositories only', () => {
		const importers = sourceFiles('').filter((file) =>
			/from\s+['"][^'"]*\/job-guards(?:\.ts)?['"]/.test(readFileSync(path.join(SRC, file), 'utf8'))
		);
		expect(importers.sort()).toEqual(WRITERS);
	});
});

function sourceFiles(dir: string): string[] {
	return readdirSync(path.join(SRC, dir), { withFileTypes: true }).flatMap((entry) => {
		const rel = dir ? `${dir}/${entry.name}` : entry.name;
		if (entry.isDirectory()) return rel.startsWith('lib/server/db/generated') ? [] : sourceFiles(rel);
		return /\.(ts|svelte)$/.test(entry.name) ? [rel] : [];
	});
}
