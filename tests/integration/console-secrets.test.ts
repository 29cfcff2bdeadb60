import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/lib/server/config/config.ts';
import { readSecretsInForce } from '../../src/lib/server/settings/console-secrets.ts';
import { loadSettingsSecretKey, SETTINGS_KEY_FILE } from '../../src/lib/server/settings/secret-box.ts';
import { FIRST_RUN_SECRETS_FILE } from '../../src/lib/server/system/first-run-secrets.ts';
import { PROJECT_ROOT } from '../helpers/node-process.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { startConsoleWorld, testConfig } from './console-fixtures.ts';

const GEMINI_KEY = 'AIzaSy-console-replaced-key-0123456789';

/**
 * Secrets replaced on the Settings page: sealed at rest (the database holds no plaintext), never
 * sent back to the browser, audited without the value, opened only with the settings key.
 */
describe('console secrets', () => {
	const tempDir = useTempDir('console-secrets-');
	const closers: (() => Promise<void>)[] = [];
	afterEach(async () => {
		for (const close of closers.splice(0)) await close();
	});

	it('stores a replaced key encrypted, shows only who set it, audits without the value, and the worker reads it', async () => {
		const world = await startConsoleWorld(tempDir());
		closers.push(() => world.db.$disconnect());
		const owner = world.callerFor(world.owner);

		expect(await owner.settings.replaceSecret({ name: 'geminiApiKey', value: ` ${GEMINI_KEY} ` })).toEqual({
			replaced: true
		});

		const listed = await owner.settings.list();
		expect(JSON.stringify(listed)).not.toContain(GEMINI_KEY);
		expect(listed.secrets.find((s) => s.name === 'geminiApiKey')).toMatchObject({
			origin: 'console',
			setBy: 'olga',
			setAt: '2026-06-01T10:00:00.000Z'
		});
		expect(listed.secrets.find((s) => s.name === 'openaiApiKey')).toMatchObject({ origin: 'none', setBy: null });

		const rows = await world.db.setting.findMany();
		expect(JSON.stringify(rows)).not.toContain(GEMINI_KEY);
		expect(JSON.stringify(rows)).not.toContain(Buffer.from(GEMINI_KEY).toString('base64'));
		const audit = await world.db.auditLog.findMany({ where: { action: 'secret_replace' } });
		expect(audit.map((row) => [row.actor, JSON.parse(row.details ?? '{}')])).toEqual([
			['olga', { secret: 'geminiApiKey' }]
		]);
		expect(JSON.stringify(await world.db.auditLog.findMany())).not.toContain(GEMINI_KEY);

		// The key was made on first use in the data folder (mode 600) and noted for the person setting up.
		const keyFile = path.join(world.dir, SETTINGS_KEY_FILE);
		expect(statSync(keyFile).mode & 0o777).toBe(0o600);
		expect(readFileSync(path.join(world.dir, FIRST_RUN_SECRETS_FILE), 'utf8')).toContain('SETTINGS_SECRET_KEY=');
		const config = testConfig(world.dir);
		expect((await readSecretsInForce(world.db, loadSettingsSecretKey(config, world.clock), config)).geminiApiKey).toBe(
			GEMINI_KEY
		);

		// Another key opens nothing: the environment's value (none here) applies.
		const otherKey = parseConfig(
			{ NODE_ENV: 'test', DATA_DIR: world.dir, SETTINGS_SECRET_KEY: 'ab'.repeat(32) },
			PROJECT_ROOT
		);
		expect(
			(await readSecretsInForce(world.db, loadSettingsSecretKey(otherKey, world.clock), config)).geminiApiKey
		).toBeUndefined();

		// With a key there, gemini may now be chosen.
		expect(await owner.settings.set({ name: 'imageProvider', text: 'gemini' })).toMatchObject({ changed: true });
		expect(await owner.settings.clearSecret({ name: 'geminiApiKey' })).toEqual({ cleared: true });
		expect(
			(await world.db.auditLog.findMany({ where: { action: 'secret_clear' } })).map((r) =>
				JSON.parse(r.details ?? '{}')
			)
		).toEqual([{ secret: 'geminiApiKey' }]);
		expect(existsSync(keyFile)).toBe(true);
	});

	it('refuses a malformed value, a bot token in emulator mode, and anyone but the owner', async () => {
		const world = await startConsoleWorld(tempDir());
		closers.push(() => world.db.$disconnect());
		const owner = world.callerFor(world.owner);
		await expect(owner.settings.replaceSecret({ name: 'openaiApiKey', value: 'short' })).rejects.toMatchObject({
			code: 'BAD_REQUEST',
			message: 'OpenAI API key: An API key is one word of 20 to 200 characters.'
		});
		await expect(
			owner.settings.replaceSecret({ name: 'telegramBotToken', value: '123456:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw' })
		).rejects.toMatchObject({
			code: 'BAD_REQUEST',
			message: expect.stringContaining('runs against the Telegram emulator')
		});
		for (const who of [world.ivan, world.vera]) {
			await expect(
				world.callerFor(who).settings.replaceSecret({ name: 'geminiApiKey', value: GEMINI_KEY })
			).rejects.toMatchObject({ code: 'FORBIDDEN' });
		}
		expect(await world.db.setting.count({ where: { key: { startsWith: 'secret.' } } })).toBe(0);
		expect(await world.db.auditLog.count({ where: { action: { in: ['secret_replace', 'secret_clear'] } } })).toBe(0);
	});
});
