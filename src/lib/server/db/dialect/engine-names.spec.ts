import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * "Nothing else may name an engine" (docs/development.md, Database dialects): code outside
 * src/lib/server/db/ asks the dialect what the database allows (`storage`, `sharedServer`,
 * `lockWaitBlocksProcess`, …) and never which engine it is. Comments may name engines (they
 * say why); code, strings and import paths may not, except in the files below.
 */
const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const DB_DIR = 'lib/server/db';

/** Files that are one engine's half of something, by nature; each with its reason. */
const MAY_NAME_ENGINES: Record<string, string> = {
	'lib/server/config/config.ts': 'parses DB_PATH / DATABASE_URL into the target the db layer opens',
	'lib/server/config/env.schema.ts': "validates DATABASE_URL's scheme and says which engine each variable selects",
	'lib/server/backup/create-backup.ts': "the file's snapshot with SQLite's backup API (better-sqlite3)",
	'lib/server/backup/restore.ts': 'puts a SQLite backup file in place of the database file',
	'lib/server/backup/erasure-replay.ts': 'reads and writes SQLite backup files opened by themselves (better-sqlite3)',
	'lib/server/backup/create-pg-backup.ts': "the server's backup: pg_dump (takes backupStamp from db/sqlite-file.ts)",
	'lib/server/backup/restore-pg.ts': 'pg_restore into the server, opened with openPostgresDatabase',
	'lib/server/backup/pg-erasure-replay.ts': "replays erasures between two servers' databases (REPLAY_FROM_URL)",
	'lib/server/backup/pg-tools.ts': "finds pg_dump / pg_restore of the server's major version",
	'lib/server/lifecycle/sql-runner.ts':
		'runs the erasure SQL on a backup file opened by itself, which is always SQLite',
	'lib/server/log/log-entry-writer.ts':
		"the log sink's own connection to the file (better-sqlite3), chosen by lockWaitBlocksProcess",
	'lib/server/guests/reset-guest.ts':
		"copies the file before a reset with SQLite's backup API, when the dialect's storage is a file"
};

const ENGINE_NAME = /sqlite|postgres/i;
/** A branch on the engine: its name as a whole string literal, or a dialect's or target's name compared. */
const ENGINE_BRANCH = /['"`](sqlite|postgres|postgresql)['"`]|\.engine\s*[!=]==|dialectOf\([^)]*\)\.name\b/i;

describe('engine names outside the dialect module', () => {
	const files = sourceFiles(SRC).filter((file) => !file.startsWith(`${DB_DIR}/`));

	it('reads a real tree (the walk finds the files it must judge)', () => {
		expect(files).toContain('worker/main.ts');
		expect(files).toContain('lib/server/web/app-context.ts');
		expect(files).toContain('routes/console/(app)/health/+page.svelte');
		expect(files.some((file) => file.startsWith(`${DB_DIR}/`))).toBe(false);
	});

	it('no file names an engine in its code, except the allow-listed ones', () => {
		const named = files
			.filter((file) => !(file in MAY_NAME_ENGINES))
			.flatMap((file) => linesMatching(file, ENGINE_NAME));
		expect(named).toEqual([]);
	});

	it('no file branches on the engine, allow-listed or not (config builds the target and may)', () => {
		const branches = files
			.filter((file) => !file.startsWith('lib/server/config/'))
			.flatMap((file) => linesMatching(file, ENGINE_BRANCH));
		expect(branches).toEqual([]);
	});

	it('every allow-listed file exists and still needs its place on the list', () => {
		const stale = Object.keys(MAY_NAME_ENGINES).filter(
			(file) => !files.includes(file) || linesMatching(file, ENGINE_NAME).length === 0
		);
		expect(stale).toEqual([]);
	});

	it('the comment stripper keeps strings and drops comments', () => {
		expect(codeOf("const a = 'x // y'; // sqlite\n/* postgres */ b <!-- SQLite --> `c`")).toBe(
			"const a = 'x // y'; \n b  `c`"
		);
		expect(ENGINE_BRANCH.test("if (dialectOf(db).name === 'x')")).toBe(true);
		expect(ENGINE_BRANCH.test("config.database.engine === 'x'")).toBe(true);
		expect(ENGINE_BRANCH.test('dialectOf(db).sharedServer')).toBe(false);
	});
});

function sourceFiles(root: string, dir = ''): string[] {
	return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
		const rel = dir ? `${dir}/${entry.name}` : entry.name;
		if (entry.isDirectory()) return sourceFiles(root, rel);
		return /\.(ts|js|svelte)$/.test(entry.name) && !/\.(spec|test)\.ts$/.test(entry.name) ? [rel] : [];
	});
}

function linesMatching(file: string, pattern: RegExp): string[] {
	return codeOf(readFileSync(path.join(SRC, file), 'utf8'))
		.split('\n')
		.filter((line) => pattern.test(line))
		.map((line) => `${file}: ${line.trim()}`);
}

/** The source without its comments (`//`, `/* … *\/`, `<!-- … -->`); strings and template literals stay. */
function codeOf(source: string): string {
	let code = '';
	let i = 0;
	while (i < source.length) {
		const rest = source.slice(i, i + 4);
		if (rest.startsWith('//')) i = endOf(source, '\n', i, 0);
		else if (rest.startsWith('/*')) i = endOf(source, '*/', i + 2, 2);
		else if (rest === '<!--') i = endOf(source, '-->', i + 4, 3);
		else if (`'"\``.includes(source[i]!)) {
			const end = closingQuote(source, i);
			code += source.slice(i, end);
			i = end;
		} else code += source[i++];
	}
	return code;
}

function endOf(source: string, marker: string, from: number, length: number): number {
	const at = source.indexOf(marker, from);
	return at < 0 ? source.length : at + length;
}

/** Past the quote that closes the one at `start`; a '…' or "…" string also ends at its line's end (a regex's quote). */
function closingQuote(source: string, start: number): number {
	const quote = source[start];
	let i = start + 1;
	while (i < source.length && source[i] !== quote) {
		if (source[i] === '\\') i++;
		else if (quote !== '`' && source[i] === '\n') return i;
		i++;
	}
	return i + 1;
}
