import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The running test file, relative to the repository, as npm test's reports name files. A module of
 * its own: the setup files that use it (file-cpu.ts, file-handles.ts) register hooks when evaluated,
 * so neither may import the other.
 */
export function currentTestFile(): string {
	return path.relative(REPO, expect.getState().testPath ?? '');
}
