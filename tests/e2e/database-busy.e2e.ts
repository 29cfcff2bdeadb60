import { spawn } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test } from '@playwright/test';
import { registerKioskOn } from './product-stack.ts';

/**
 * Another process holds the write lock past busy_timeout (5 s). The request
 * fails cleanly — 503, Retry-After, a sentence, nothing half-written — and the next one works.
 */
const DB_PATH = path.resolve(process.env.E2E_DATA_DIR ?? '.tmp/e2e-data', 'app.db');

function sessionCount(): number {
	const db = new Database(DB_PATH, { readonly: true });
	try {
		return db.prepare('SELECT count(*) FROM sessions').pluck().get() as number;
	} finally {
		db.close();
	}
}

/** Resolves once the other process holds the lock; `released` settles when it lets go. */
async function holdWriteLock(ms: number): Promise<{ released: Promise<void> }> {
	const holder = spawn(process.execPath, ['--import', 'tsx', 'tests/helpers/hold-write-lock.ts', DB_PATH, String(ms)], {
		stdio: ['ignore', 'pipe', 'inherit']
	});
	await new Promise<void>((resolve, reject) => {
		holder.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve());
		holder.on('exit', (code) => reject(new Error(`lock holder exited early (${code})`)));
	});
	return { released: new Promise((resolve) => holder.on('exit', () => resolve())) };
}

test('a write lock held past busy_timeout gives 503 + Retry-After and no partial write; the next request works', async ({
	request,
	baseURL
}) => {
	test.setTimeout(60_000);
	const key = await registerKioskOn({ dbPath: DB_PATH }, 'busy-test');
	const headers = { origin: baseURL!, 'content-type': 'application/json' };
	expect((await request.post('/api/kiosk/key', { headers, data: { key } })).status()).toBe(200);

	const before = sessionCount();
	const { released } = await holdWriteLock(7_000);
	const refused = await request.post('/api/kiosk/sessions', { headers, data: {} });
	expect(refused.status()).toBe(503);
	expect(refused.headers()['retry-after']).toBe('5');
	expect(await refused.text()).toContain('We are very busy for a moment. Please try again in a few seconds.');
	await released;
	expect(sessionCount()).toBe(before);

	const accepted = await request.post('/api/kiosk/sessions', { headers, data: {} });
	expect(accepted.status()).toBe(201);
	expect(sessionCount()).toBe(before + 1);
});
