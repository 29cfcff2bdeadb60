import { createHash } from 'node:crypto';
import path from 'node:path';
import { hash, type Options } from '@node-rs/argon2';
import Database from 'better-sqlite3';
import { expect, type Page } from '@playwright/test';
import { currentProductStack, registerKioskOn } from './product-stack.ts';
import { expectConsoleScript } from './console-ready.ts';

/**
 * Signing a spec's own operator into the console. Browser tests share one product per project: the
 * first spec to sign in creates the owner through the one-time setup link; once an owner exists
 * setup is closed, so later specs add their own operator (a viewer is enough to read; a spec that
 * changes things asks for an operator) and sign in. Everything here works on the SQLite product of
 * the running test's project (its `productStack`), whichever of the SQLite projects that is.
 */
export function e2eDataDir(): string {
	const stack = currentProductStack();
	if (stack.engine !== 'sqlite')
		throw new Error(`console-operator.ts writes to a SQLite product's file; this project's product is ${stack.engine}`);
	return path.resolve(stack.dataDir);
}

function e2eDbPath(): string {
	return path.join(e2eDataDir(), 'app.db');
}

export function withE2eDb<T>(run: (db: Database.Database) => T): T {
	const db = new Database(e2eDbPath(), { fileMustExist: true, timeout: 5000 });
	try {
		return run(db);
	} finally {
		db.close();
	}
}

export async function signInOwnOperator(
	page: Page,
	who: { username: string; password: string; setupToken: string; role?: 'viewer' | 'operator' | 'owner' }
): Promise<void> {
	const operators = withE2eDb((db) => (db.prepare('SELECT count(*) AS n FROM operators').get() as { n: number }).n);
	if (operators === 0) {
		plantSetupToken(who.setupToken);
		await page.goto(`/console/setup?token=${who.setupToken}`);
		await page.getByLabel('Username').fill(who.username);
		await page.getByLabel('Password', { exact: true }).fill(who.password);
		await page.getByLabel('Repeat password').fill(who.password);
		await page.getByRole('button', { name: 'Create owner and sign in' }).click();
	} else {
		await addOperator({ ...who, role: who.role ?? 'viewer' });
		await page.goto('/console/login');
		await page.getByLabel('Username').fill(who.username);
		await page.getByLabel('Password').fill(who.password);
		await page.getByRole('button', { name: 'Sign in' }).click();
	}
	await expect(page.getByRole('heading', { level: 1, name: 'Live' })).toBeVisible();
	await expectConsoleScript(page);
}

/** An operator account written straight into the product's database (as `npm run` scripts would); a second call is a no-op. */
export async function addOperator(who: {
	username: string;
	password: string;
	role: 'viewer' | 'operator' | 'owner';
}): Promise<void> {
	const passwordHash = await hash(who.password, {
		algorithm: 2 as Options['algorithm'],
		memoryCost: 19_456,
		timeCost: 2,
		parallelism: 1
	});
	withE2eDb((db) =>
		db
			.prepare('INSERT OR IGNORE INTO operators (username, password_hash, role, created_at) VALUES (?, ?, ?, ?)')
			.run(who.username, passwordHash, who.role, new Date().toISOString())
	);
}

/** Registers a kiosk on the running project's SQLite product (registerKioskOn); returns its key. */
export function registerE2eKiosk(name: string): Promise<string> {
	return registerKioskOn({ dbPath: e2eDbPath() }, name);
}

function plantSetupToken(token: string): void {
	withE2eDb((db) => {
		const value = JSON.stringify({
			hash: createHash('sha256').update(token).digest('hex'),
			created_at: new Date().toISOString()
		});
		db.prepare(
			"INSERT INTO settings (key, value, updated_at) VALUES ('console_setup_token', ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
		).run(value, new Date().toISOString());
	});
}
