import { createHash } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runTs } from '../helpers/node-process.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

/**
 * `npm run kiosk:add -- <name>` (scripts/kiosk-add.ts) as an operator runs it on the server: the key
 * is printed once and only its SHA-256 is stored; refusals are one sentence and an exit code, and
 * leave nothing behind. (The browser tests register their kiosks with the same step in-process.)
 */
describe('npm run kiosk:add', () => {
	const tempDir = useTempDir('kiosk-add-cli-');

	function productEnv() {
		const dataDir = tempDir();
		return { DB_PATH: path.join(dataDir, 'app.db'), DATA_DIR: dataDir, PUBLIC_BASE_URL: 'https://stickers.example' };
	}

	function kioskRows(dbPath: string) {
		const db = new Database(dbPath, { readonly: true });
		try {
			return {
				kiosks: db.prepare('SELECT name, key_hash AS keyHash FROM kiosks ORDER BY id').all() as {
					name: string;
					keyHash: string;
				}[],
				audit: db.prepare(`SELECT actor, action FROM audit_log WHERE action LIKE 'kiosk%'`).all()
			};
		} finally {
			db.close();
		}
	}

	it('registers a kiosk on a new database, prints its key and pairing link once, stores only the hash', async () => {
		const env = productEnv();
		const run = await runTs('scripts/kiosk-add.ts', { env, args: ['Hall A', '--json'] });
		expect(run.stderr).toBe('');
		expect(run.code).toBe(0);
		const printed = JSON.parse(run.stdout) as { name: string; key: string; pairingLink: string };
		expect(printed.name).toBe('Hall A');
		expect(printed.pairingLink.startsWith('https://stickers.example/')).toBe(true);
		expect(printed.pairingLink).toContain(printed.key);

		const { kiosks, audit } = kioskRows(env.DB_PATH);
		expect(kiosks).toEqual([{ name: 'Hall A', keyHash: createHash('sha256').update(printed.key).digest('hex') }]);
		expect(audit).toEqual([{ actor: 'cli:kiosk-add', action: 'kiosk_add' }]);

		const plain = await runTs('scripts/kiosk-add.ts', { env, args: ['Hall B'] });
		expect(plain.code).toBe(0);
		expect(plain.stdout).toContain('Kiosk "Hall B" registered.');
		expect(plain.stdout).toContain('Key (shown only now');
		expect(plain.stdout).not.toContain(kioskRows(env.DB_PATH).kiosks[1]!.keyHash);
	}, 60_000);

	it('refuses a taken name, a bad name and no name with a sentence, and adds nothing', async () => {
		const env = productEnv();
		expect((await runTs('scripts/kiosk-add.ts', { env, args: ['Hall A'] })).code).toBe(0);

		const taken = await runTs('scripts/kiosk-add.ts', { env, args: ['Hall A'] });
		expect(taken.code).toBe(1);
		expect(taken.stderr.trim()).toBe('There is already a kiosk named "Hall A": choose another name.');

		const bad = await runTs('scripts/kiosk-add.ts', { env, args: ['Hall <A>'] });
		expect(bad.code).toBe(2);
		expect(bad.stderr.trim()).toBe('A kiosk name may have letters, digits, spaces and _ . - only.');

		const none = await runTs('scripts/kiosk-add.ts', { env, args: [] });
		expect(none.code).toBe(2);
		expect(none.stderr).toContain('usage: node --import tsx scripts/kiosk-add.ts <name>');

		expect(kioskRows(env.DB_PATH).kiosks.map((kiosk) => kiosk.name)).toEqual(['Hall A']);
	}, 60_000);
});
