import { createServer } from 'node:net';
import { describe, expect, inject, it } from 'vitest';
import { runBuiltWorker, runTs } from '../../helpers/node-process.ts';
import { databaseUrl } from '../../helpers/pg-cluster.ts';
import { useTempDir } from '../../helpers/temp-dir.ts';

/** A port nothing listens on: bound for a moment by us, then released. */
async function closedPort(): Promise<number> {
	return new Promise((resolve) => {
		const server = createServer().listen(0, '127.0.0.1', () => {
			const { port } = server.address() as { port: number };
			server.close(() => resolve(port));
		});
	});
}

/** `npm run db:migrate` with this environment: what a process prints when it refuses to start. */
async function migrateWith(env: Record<string, string>) {
	const result = await runTs('src/lib/server/db/migrate-cli.ts', { env: { DB_PATH: '', ...env } });
	return { code: result.code, stderr: result.stderr.trim(), stdout: result.stdout };
}

describe('PostgreSQL configuration that cannot work: one clear line at start, no stack', () => {
	const tempDir = useTempDir();

	it('an unreachable server names host:port', async () => {
		const port = await closedPort();
		const result = await migrateWith({ DATABASE_URL: `postgresql://app:secret@127.0.0.1:${port}/kiosk` });
		expect(result.code).toBe(1);
		expect(result.stderr).toBe(
			`cannot reach PostgreSQL at 127.0.0.1:${port} (ECONNREFUSED): check the host and port in DATABASE_URL and that the server is running`
		);
	});

	it('the worker itself refuses to start with that line', async () => {
		const port = await closedPort();
		const result = await runBuiltWorker({
			env: { DB_PATH: '', DATABASE_URL: `postgresql://app:secret@127.0.0.1:${port}/kiosk`, DATA_DIR: tempDir() }
		});
		expect(result.code).toBe(1);
		expect(result.stderr.trim()).toBe(
			`worker refuses to start: cannot reach PostgreSQL at 127.0.0.1:${port} (ECONNREFUSED): check the host and port in DATABASE_URL and that the server is running`
		);
	});

	it('a wrong password names the user and never prints the password', async () => {
		const url = new URL(inject('pgServerUrl'));
		url.password = 'not-the-password';
		const result = await migrateWith({ DATABASE_URL: url.toString() });
		expect(result.code).toBe(1);
		expect(result.stderr).toBe(
			`PostgreSQL at 127.0.0.1:${url.port} refused user "app" (password authentication failed for user "app"): check the user and password in DATABASE_URL`
		);
		expect(result.stderr).not.toContain('not-the-password');
	});

	it('a database that does not exist is named', async () => {
		const result = await migrateWith({ DATABASE_URL: databaseUrl(inject('pgServerUrl'), 'no_such_db') });
		expect(result.code).toBe(1);
		expect(result.stderr).toBe(
			`PostgreSQL at 127.0.0.1:${new URL(inject('pgServerUrl')).port} has no database "no_such_db": create it or fix DATABASE_URL`
		);
	});

	it('DATABASE_URL together with DB_PATH is refused before anything is opened', async () => {
		const result = await migrateWith({ DATABASE_URL: inject('pgServerUrl'), DB_PATH: 'data/other.db' });
		expect(result.code).toBe(1);
		expect(result.stderr).toBe(
			'Invalid configuration:\n  - DATABASE_URL and DB_PATH are both set: DATABASE_URL runs on PostgreSQL, DB_PATH names a SQLite file — unset one'
		);
	});
});
