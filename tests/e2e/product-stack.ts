import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { test as base } from '@playwright/test';
import { openDatabase, openPostgresDatabase } from '../../src/lib/server/db/client.ts';
import type { FileStore } from '../../src/lib/server/files/file-store.ts';
import { LocalFileStore } from '../../src/lib/server/files/local-file-store.ts';
import { S3FileStore } from '../../src/lib/server/files/s3-file-store.ts';
import { addKiosk } from '../../src/lib/server/kiosk/kiosk-admin.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { S3RVER_KEY } from '../helpers/start-s3-server.ts';

/**
 * Which product a Playwright project talks to (playwright.config.ts): the SQLite one with its
 * files under DATA_DIR, or the one on PostgreSQL + s3rver (tests/e2e/pg-s3-stack.ts), whose
 * database and bucket URLs the stack's "ready" line put into the environment.
 */
export interface ProductStackOption {
	engine: 'sqlite' | 'postgres-s3';
	emulatorPort: number;
	dataDir: string;
}

/** Statements with `?` placeholders, written so both engines take them (e.g. ON CONFLICT, not INSERT OR REPLACE). */
/** The worker-scoped option a project sets (playwright.config.ts). */
export interface ProductStackWorkerOptions {
	productStack: ProductStackOption;
}

export interface StackDb {
	get<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T | undefined>;
	run(sql: string, ...params: unknown[]): Promise<void>;
	close(): Promise<void>;
}

export interface ProductStack extends ProductStackOption {
	emulatorUrl: string;
	db: StackDb;
	/** The product's own store on the stack's folder or bucket, to look at the guests' files. */
	files: FileStore;
	/** Registers a kiosk on the stack's database (registerKioskOn); returns its key. */
	registerKiosk(): Promise<string>;
}

function sqliteDb(dbPath: string): StackDb {
	const db = new Database(dbPath, { fileMustExist: true, timeout: 5000 });
	return {
		get: async (sql, ...params) => db.prepare(sql).get(...params) as never,
		run: async (sql, ...params) => void db.prepare(sql).run(...params),
		close: async () => {
			db.close();
		}
	};
}

async function postgresDb(url: string): Promise<StackDb> {
	const client = new pg.Client({ connectionString: url });
	await client.connect();
	let n = 0;
	const numbered = (sql: string) => ((n = 0), sql.replace(/\?/g, () => `$${++n}`));
	return {
		get: async (sql, ...params) => (await client.query(numbered(sql), params)).rows[0],
		run: async (sql, ...params) => void (await client.query(numbered(sql), params)),
		close: () => client.end()
	};
}

function required(name: string): string {
	const value = process.env[name];
	if (!value)
		throw new Error(
			`${name} is not set: the postgres-s3 project needs the stack of tests/e2e/pg-s3-stack.ts (playwright.config.ts)`
		);
	return value;
}

/** Where a product keeps its data: a SQLite file, or a PostgreSQL database. */
export type ProductDatabase = { dbPath: string } | { databaseUrl: string };

/**
 * Registers a kiosk on a product's database with the product's own step (`addKiosk`, behind the
 * console's Add kiosk and `npm run kiosk:add`, audited as `e2e:kiosk-add`); returns its key. In
 * this process, not through the CLI: a CLI start per kiosk was about 1 s of CPU, 32 s a browser
 * run. The CLI itself: tests/integration/kiosk-add-cli.test.ts.
 */
export async function registerKioskOn(database: ProductDatabase, name: string): Promise<string> {
	const db = 'dbPath' in database ? openDatabase(database.dbPath) : openPostgresDatabase(database.databaseUrl);
	try {
		return (await addKiosk(db, systemClock, { name: 'e2e:kiosk-add', ip: null }, name)).key;
	} finally {
		await db.$disconnect();
	}
}

async function openStack(option: ProductStackOption): Promise<ProductStack> {
	const dataDir = path.resolve(option.dataDir);
	const emulatorUrl = `http://127.0.0.1:${option.emulatorPort}`;
	let database: ProductDatabase;
	let db: StackDb;
	let files: FileStore;
	if (option.engine === 'sqlite') {
		const dbPath = path.join(dataDir, 'app.db');
		database = { dbPath };
		db = sqliteDb(dbPath);
		files = new LocalFileStore(dataDir);
	} else {
		const databaseUrl = required('E2E_PG_DATABASE_URL');
		const bucket = new URL(required('E2E_S3_BUCKET_URL'));
		database = { databaseUrl };
		db = await postgresDb(databaseUrl);
		files = new S3FileStore({
			bucket: bucket.pathname.slice(1),
			region: 'us-east-1',
			endpoint: bucket.origin,
			forcePathStyle: true,
			credentials: S3RVER_KEY
		});
	}
	const registerKiosk = () => registerKioskOn(database, `e2e-${Date.now()}-${Math.floor(Math.random() * 1e6)}`);
	return { ...option, dataDir, emulatorUrl, db, files, registerKiosk };
}

/** `productStack` is set per project; `product` is opened once per worker on it. */
export const test = base.extend<object, ProductStackWorkerOptions & { product: ProductStack }>({
	productStack: [
		{ engine: 'sqlite', emulatorPort: 18081, dataDir: '.tmp/e2e-data' },
		{ option: true, scope: 'worker' }
	],
	product: [
		async ({ productStack }, use) => {
			const stack = await openStack(productStack);
			await use(stack);
			await stack.db.close();
			if (stack.files instanceof S3FileStore) stack.files.close();
		},
		{ scope: 'worker' }
	]
});

/**
 * The product the running test's project talks to (its `productStack` option), for helpers called
 * inside a test without the fixture at hand (console-operator.ts). Outside a test it throws.
 */
export function currentProductStack(): ProductStackOption {
	const stack = (base.info().project.use as Partial<ProductStackWorkerOptions>).productStack;
	if (!stack) throw new Error('this project sets no productStack (playwright.config.ts)');
	return stack;
}

export { expect } from '@playwright/test';
