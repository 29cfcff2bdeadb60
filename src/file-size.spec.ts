import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * "Small files" (docs/development.md, the rules of the code): a file aims at ≲ 300 lines, and none
 * of ours goes past MAX_LINES. A file that grows past it is split by concern (a repository's claims
 * apart from its named steps, a spec's access tests apart from its actions), not trimmed of
 * comments or tests. Generated code is not ours to split; a file that must stay whole goes on the
 * allow-list with its reason.
 */
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOTS = ['src', 'tests', 'tools', 'bench', 'scripts'];
const MAX_LINES = 400;
const CODE_FILE = /\.(ts|svelte|js|mjs)$/;

/** Folders of generated code, skipped whole; each with where it comes from. */
const GENERATED: Record<string, string> = {
	'src/lib/server/db/generated': 'the SQLite Prisma client (npm run db:generate), git-ignored',
	'src/lib/server/db/generated-pg': 'the PostgreSQL Prisma client (npm run db:generate), git-ignored'
};

/** Files of ours that may be longer than MAX_LINES, each with the reason it stays one file. */
const MAY_BE_LONGER: Record<string, string> = {};

describe('file size', () => {
	const files = ROOTS.flatMap((root) => codeFiles(root));

	it('reads a real tree (the walk finds the files it must judge, and no generated one)', () => {
		expect(files).toContain('src/hooks.server.ts');
		expect(files).toContain('src/lib/server/jobs/job.repository.ts');
		expect(files).toContain('tests/e2e/console-access.e2e.ts');
		expect(files).toContain('tools/telegram-emulator/server.ts');
		expect(files.some((file) => file.endsWith('.svelte'))).toBe(true);
		expect(files.some((file) => Object.keys(GENERATED).some((dir) => file.startsWith(`${dir}/`)))).toBe(false);
	});

	it(`no file of ours is longer than ${MAX_LINES} lines, except the allow-listed ones`, () => {
		const long = files
			.filter((file) => !(file in MAY_BE_LONGER))
			.map((file) => ({ file, lines: lineCount(file) }))
			.filter(({ lines }) => lines > MAX_LINES)
			.map(({ file, lines }) => `${file}: ${lines} lines`);
		expect(long).toEqual([]);
	});

	it('every allow-listed file exists, is still too long, and says why', () => {
		const stale = Object.entries(MAY_BE_LONGER).filter(
			([file, reason]) => !files.includes(file) || lineCount(file) <= MAX_LINES || reason.trim() === ''
		);
		expect(stale).toEqual([]);
	});

	it('counts lines as wc -l does', () => {
		expect(linesOf('a\nb\n')).toBe(2);
		expect(linesOf('a\nb')).toBe(2);
		expect(linesOf('')).toBe(0);
	});
});

function codeFiles(dir: string): string[] {
	if (dir in GENERATED) return [];
	return readdirSync(path.join(REPO, dir), { withFileTypes: true }).flatMap((entry) => {
		const rel = `${dir}/${entry.name}`;
		if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : codeFiles(rel);
		return CODE_FILE.test(entry.name) ? [rel] : [];
	});
}

function lineCount(file: string): number {
	return linesOf(readFileSync(path.join(REPO, file), 'utf8'));
}

function linesOf(text: string): number {
	if (text === '') return 0;
	return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}
