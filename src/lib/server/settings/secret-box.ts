import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Clock } from '../time/clock.ts';
import { keepFirstRunSecret } from '../system/first-run-secrets.ts';

/**
 * Secrets set on the console (the bot token, provider API keys) are stored sealed with AES-256-GCM:
 * a fresh 12-byte IV per value, the 16-byte tag checked on opening (a wrong key or a changed row
 * opens to nothing, never to garbage). The key is SETTINGS_SECRET_KEY (64 hex digits); without it,
 * DATA_DIR/settings-secret.key, made on first use (mode 600) and noted once in the first-run
 * secrets file so the person setting up can keep a copy. It is never in the database, so a leaked
 * database or backup alone does not give the secrets away.
 */
export const SETTINGS_KEY_FILE = 'settings-secret.key';

export const sealedSchema = z.object({ iv: z.string(), tag: z.string(), data: z.string() });
export type Sealed = z.infer<typeof sealedSchema>;

export function seal(key: Buffer, plaintext: string): Sealed {
	const iv = randomBytes(12);
	const cipher = createCipheriv('aes-256-gcm', key, iv);
	const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
	return { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
}

/** The plaintext, or null when the key is not the one it was sealed with (or the row was changed). */
export function open(key: Buffer, sealed: Sealed): string | null {
	try {
		const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
		decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
		return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
	} catch {
		return null;
	}
}

/** SETTINGS_SECRET_KEY, or the data folder's key file (made on first use, with a first-run note). */
export function loadSettingsSecretKey(config: { SETTINGS_SECRET_KEY?: string; dataDir: string }, clock: Clock): Buffer {
	if (config.SETTINGS_SECRET_KEY) return Buffer.from(config.SETTINGS_SECRET_KEY, 'hex');
	const file = path.join(config.dataDir, SETTINGS_KEY_FILE);
	mkdirSync(config.dataDir, { recursive: true });
	const made = randomBytes(32).toString('hex');
	try {
		// 'wx' fails if the file exists: two processes racing at first use agree on one key.
		writeFileSync(file, made, { flag: 'wx', mode: 0o600 });
		chmodSync(file, 0o600);
		keepFirstRunSecret(config.dataDir, clock, 'Key for the secrets set on the console (Settings page), made now:', [
			`kept in ${file}; back it up with the data folder, or set SETTINGS_SECRET_KEY=${made}`,
			'(every host of a fleet needs the same SETTINGS_SECRET_KEY)'
		]);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
	}
	const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
	if (key.length !== 32) throw new Error(`${file} is not a settings secret key (expected 64 hex characters)`);
	return key;
}
