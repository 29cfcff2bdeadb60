import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { hashKioskKey } from '../../src/lib/server/kiosk/kiosk-keys.ts';
import { hashSessionToken } from '../../src/lib/server/auth/session-token.ts';
import { BUILT_WEB_ENTRY, freePort, spawnBuiltWeb, waitForHealth } from '../helpers/built-web.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const WEB_PORT = await freePort();

describe('secrets of a first start', () => {
	const tempDir = useTempDir('kiosk-first-run-');

	it.skipIf(!existsSync(BUILT_WEB_ENTRY))(
		'finding 8: the first kiosk key and the setup link go to a 0600 file under DATA_DIR, never to the log stream or log_entries',
		async () => {
			const dataDir = tempDir();
			// stdout is a pipe here, as under systemd (appended to logs/web.log): not a terminal.
			const web = spawnBuiltWeb({ port: WEB_PORT, dataDir });
			try {
				await waitForHealth(web);
				const file = path.join(dataDir, 'first-run-secrets.txt');
				expect(existsSync(file), `no ${file}; web stdout:\n${web.output().stdout}`).toBe(true);
				expect(statSync(file).mode & 0o777).toBe(0o600);
				const text = readFileSync(file, 'utf8');
				const key = /kiosk key: (\S+)/.exec(text)?.[1];
				const token = /\/console\/setup\?token=([^\s&]+)/.exec(text)?.[1];
				expect(key, text).toBeDefined();
				expect(token, text).toBeDefined();

				const db = new Database(path.join(dataDir, 'app.db'), { readonly: true });
				const logged = () =>
					db.prepare(`SELECT message || ' ' || coalesce(context, '') FROM log_entries`).pluck().all().join('\n');
				try {
					// The file holds the real secrets: the stored hashes match them.
					expect(db.prepare(`SELECT key_hash FROM kiosks WHERE name = 'kiosk-1'`).pluck().get()).toBe(
						hashKioskKey(key!)
					);
					const setup = JSON.parse(
						db.prepare(`SELECT value FROM settings WHERE key = 'console_setup_token'`).pluck().get() as string
					) as { hash: string };
					expect(setup.hash).toBe(hashSessionToken(decodeURIComponent(token!)));
					// The log says where to look (so it is found), never what is there.
					await expect.poll(logged, { timeout: 10_000 }).toContain('first-run secrets file');
					expect(logged()).not.toContain(key!);
					expect(logged()).not.toContain(token!);
				} finally {
					db.close();
				}
				const { stdout, stderr } = web.output();
				expect(stdout).toContain('first-run-secrets.txt');
				expect(stdout + stderr).not.toContain(key!);
				expect(stdout + stderr).not.toContain(token!);
			} finally {
				web.kill('SIGKILL');
			}
		},
		60_000
	);
});
