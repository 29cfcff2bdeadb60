import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

/** pg_dump and pg_restore: the two client programs a PostgreSQL backup and restore run. */
export type PgTool = 'pg_dump' | 'pg_restore';

/** Runs one program and resolves with its output; rejects with its stderr when it fails. */
export type ToolRunner = (command: string, args: string[], env: NodeJS.ProcessEnv) => Promise<{ stdout: string }>;

const execFileAsync = promisify(execFile);

export const runTool: ToolRunner = async (command, args, env) => {
	try {
		const { stdout } = await execFileAsync(command, args, { env, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' });
		return { stdout };
	} catch (error) {
		const failure = error as { stderr?: string; message: string };
		throw new PgToolError(
			`${path.basename(command)} failed: ${(failure.stderr || failure.message).trim().slice(0, 1000)}`
		);
	}
};

export class PgToolError extends Error {
	override name = 'PgToolError';
}

/** Where the client programs are looked for: Debian's per-version folders, then PATH. */
export interface PgToolSearch {
	/** Debian keeps each major version's binaries in <base>/<major>/bin, not on PATH. */
	versionsBase?: string;
	pathDirs?: string[];
}

/**
 * The program of the server's own major version: pg_dump refuses a newer server, and an older
 * pg_restore cannot read a newer archive, so a mismatch is stopped here with a sentence that says
 * what to install instead of pg_dump's own error half-way through.
 */
export async function findPgTool(
	tool: PgTool,
	serverMajor: number,
	search: PgToolSearch = {},
	run: ToolRunner = runTool
): Promise<string> {
	const base = search.versionsBase ?? '/usr/lib/postgresql';
	const pathDirs = search.pathDirs ?? (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
	const candidates = [
		...(existsSync(base) ? readdirSync(base).map((v) => path.join(base, v, 'bin', tool)) : []),
		...pathDirs.map((dir) => path.join(dir, tool))
	].filter((file) => existsSync(file));
	const seen: string[] = [];
	for (const file of candidates) {
		const major = await toolMajor(file, run);
		if (major === serverMajor) return file;
		seen.push(`${file} is version ${major ?? 'unknown'}`);
	}
	const found = seen.length > 0 ? ` (${seen.join('; ')})` : '';
	throw new PgToolError(
		`no ${tool} of PostgreSQL ${serverMajor} found under ${base}/*/bin or on PATH${found}: apt-get install -y postgresql-client-${serverMajor}`
	);
}

async function toolMajor(file: string, run: ToolRunner): Promise<number | null> {
	const { stdout } = await run(file, ['--version'], { PATH: process.env.PATH ?? '' });
	const match = /\(PostgreSQL\)\s+(\d+)/.exec(stdout);
	return match?.[1] ? Number(match[1]) : null;
}

/** The server's major version (server_version_num is e.g. 150018 for 15.18). */
export async function serverMajorVersion(url: string): Promise<number> {
	const client = new pg.Client({ connectionString: url });
	await client.connect();
	try {
		const { rows } = await client.query<{ v: string }>(`SELECT current_setting('server_version_num') AS v`);
		return Math.floor(Number(rows[0]?.v) / 10_000);
	} finally {
		await client.end();
	}
}

/**
 * DATABASE_URL as command-line options and environment. The password goes only into the
 * program's environment (PGPASSWORD): a command line is visible to every user of the machine in
 * `ps`, and would land in logs of failed commands.
 */
export function connectionFor(url: string): { args: string[]; env: NodeJS.ProcessEnv } {
	const parsed = new URL(url);
	const args = ['--dbname', decodeURIComponent(parsed.pathname.slice(1))];
	// A socket folder comes as ?host=/var/run/postgresql, which wins over the host part (as in libpq).
	const host = parsed.searchParams.get('host') ?? decodeURIComponent(parsed.hostname);
	if (host) args.push('--host', host);
	if (parsed.port) args.push('--port', parsed.port);
	if (parsed.username) args.push('--username', decodeURIComponent(parsed.username));
	const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '', PGCONNECT_TIMEOUT: '10' };
	if (parsed.password) env.PGPASSWORD = decodeURIComponent(parsed.password);
	const sslmode = parsed.searchParams.get('sslmode');
	if (sslmode) env.PGSSLMODE = sslmode;
	return { args, env };
}
