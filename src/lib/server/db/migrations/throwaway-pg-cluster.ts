import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A PostgreSQL server of our own in a temporary folder: for tests and for writing migrations. */
export interface PgCluster {
	/** postgresql://app:<password>@127.0.0.1:<port>/postgres */
	url: string;
	/** Stops the server and removes its folder; safe to call twice. */
	stop(): Promise<void>;
}

export class PgBinariesMissing extends Error {
	override name = 'PgBinariesMissing';
	constructor(where = '/usr/lib/postgresql/*/bin') {
		super(`PostgreSQL is not installed (no initdb under ${where}): apt-get install -y postgresql`);
	}
}

/** Debian's PostgreSQL binaries (not on PATH), newest version first; PG_BIN overrides. */
export function findPgBinaries(): string {
	if (process.env.PG_BIN) {
		if (!existsSync(path.join(process.env.PG_BIN, 'initdb'))) throw new PgBinariesMissing(process.env.PG_BIN);
		return process.env.PG_BIN;
	}
	const base = '/usr/lib/postgresql';
	const versions = existsSync(base)
		? readdirSync(base).filter((v) => existsSync(path.join(base, v, 'bin', 'initdb')))
		: [];
	const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
	if (newest === undefined) throw new PgBinariesMissing();
	return path.join(base, newest, 'bin');
}

/**
 * initdb refuses to run as root, so as root the server's folder belongs to the `postgres` user
 * and initdb/pg_ctl run as that user.
 */
function serverOwner(): { uid: number; gid: number } | undefined {
	if (process.getuid?.() !== 0) return undefined;
	const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
	const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
	return { uid, gid };
}

function asOwner(owner: ReturnType<typeof serverOwner>, command: string, args: string[]): [string, string[]] {
	return owner ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

async function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as { port: number };
			server.close(() => resolve(port));
		});
	});
}

/**
 * Server settings for a throwaway cluster: TCP on loopback only, the unix socket in its own folder
 * (never the system's /var/run/postgresql), and durability off — the data dies with the tests.
 */
function serverOptions(port: number, socketDir: string): string {
	const settings = [
		'listen_addresses=127.0.0.1',
		'fsync=off',
		'synchronous_commit=off',
		'full_page_writes=off',
		'max_connections=200'
	];
	return [`-p ${port}`, `-k ${socketDir}`, ...settings.map((s) => `-c ${s}`)].join(' ');
}

/**
 * initdb in a temporary folder and pg_ctl start on a free port (about 2 s). The user `app` signs
 * in with a random password over TCP (so wrong credentials can be tested); the folder is removed
 * on stop, and on process exit if stop was never called.
 */
export async function startPgCluster(): Promise<PgCluster> {
	const bin = findPgBinaries();
	const owner = serverOwner();
	const dir = mkdtempSync(path.join(tmpdir(), 'pg-cluster-'));
	if (owner) chownSync(dir, owner.uid, owner.gid);
	const dataDir = path.join(dir, 'data');
	const password = randomBytes(12).toString('hex');
	const pwFile = path.join(dir, 'pw');
	writeFileSync(pwFile, password, { mode: 0o600 });
	if (owner) chownSync(pwFile, owner.uid, owner.gid);
	const pgCtl = path.join(bin, 'pg_ctl');
	let started = false;
	const stopNow = () => {
		if (started) {
			started = false;
			try {
				execFileSync(...asOwner(owner, pgCtl, ['-D', dataDir, '-m', 'immediate', '-w', 'stop']), { stdio: 'ignore' });
			} catch {
				// already gone
			}
		}
		rmSync(dir, { recursive: true, force: true });
	};
	process.once('exit', stopNow);
	try {
		const initArgs = [
			'-D',
			dataDir,
			'-U',
			'app',
			`--pwfile=${pwFile}`,
			'--auth-local=trust',
			'--auth-host=scram-sha-256',
			'-E',
			'UTF8',
			'--no-locale',
			'--no-sync',
			'--no-instructions'
		];
		await run(...asOwner(owner, path.join(bin, 'initdb'), initArgs));
		const port = await freePort();
		started = true;
		await run(
			...asOwner(owner, pgCtl, [
				'-D',
				dataDir,
				'-l',
				path.join(dir, 'server.log'),
				'-o',
				serverOptions(port, dir),
				'-w',
				'start'
			])
		);
		return {
			url: `postgresql://app:${password}@127.0.0.1:${port}/postgres`,
			stop: async () => {
				process.removeListener('exit', stopNow);
				if (started) {
					started = false;
					await run(...asOwner(owner, pgCtl, ['-D', dataDir, '-m', 'fast', '-w', 'stop'])).catch(() => undefined);
				}
				rmSync(dir, { recursive: true, force: true });
			}
		};
	} catch (error) {
		stopNow();
		process.removeListener('exit', stopNow);
		throw new Error(
			`could not start a throwaway PostgreSQL cluster: ${(error as { stderr?: string }).stderr?.trim() || (error as Error).message}`,
			{ cause: error }
		);
	}
}
