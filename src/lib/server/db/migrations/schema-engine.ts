import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import {
	bindMigrationAwareSqlAdapterFactory,
	type SqlDriverAdapter,
	type SqlMigrationAwareDriverAdapterFactory
} from '@prisma/driver-adapter-utils';
import type { SchemaEngine } from '@prisma/schema-engine-wasm';

/**
 * Prisma's schema engine as WebAssembly (npm `@prisma/schema-engine-wasm`), because the CLI's
 * native engine is downloaded from outside the npm registry and that fails on our machines.
 * Used only to *write* new migrations (`npm run db:new-migration`) and to check that the
 * migrations still produce the schema; applying them is our own code. `shadow` is where the
 * engine replays migrations: an in-memory SQLite by default, for PostgreSQL a `PrismaPg` factory
 * on a server it may create (and drop) a scratch database on.
 */
export async function loadSchemaEngine(
	datamodel: { path: string; content: string },
	shadow: SqlMigrationAwareDriverAdapterFactory = new ShadowScriptFactory()
): Promise<{ engine: SchemaEngine; close(): Promise<void> }> {
	installPanicRegistry();
	const bindings = await (engineBindings ??= instantiateEngine());
	const connections = new ClosingFactory(shadow);
	const log = () => undefined;
	const engine = await bindings.SchemaEngine.new(
		{ datamodels: [[datamodel.path, datamodel.content]] },
		log,
		bindMigrationAwareSqlAdapterFactory(connections)
	);
	return {
		engine,
		close: async () => {
			engine.free();
			await connections.closeAll();
		}
	};
}

/**
 * Freeing the engine does not close the connections it opened (a PostgreSQL pool would keep the
 * process alive and break when its server stops), so remember them and close them ourselves.
 */
class ClosingFactory implements SqlMigrationAwareDriverAdapterFactory {
	readonly #inner: SqlMigrationAwareDriverAdapterFactory;
	readonly #open: SqlDriverAdapter[] = [];
	readonly provider: SqlMigrationAwareDriverAdapterFactory['provider'];
	readonly adapterName: string;

	constructor(inner: SqlMigrationAwareDriverAdapterFactory) {
		this.#inner = inner;
		this.provider = inner.provider;
		this.adapterName = inner.adapterName;
	}

	async connect(): Promise<SqlDriverAdapter> {
		return this.#remember(await this.#inner.connect());
	}

	async connectToShadowDb(): Promise<SqlDriverAdapter> {
		return this.#remember(await this.#inner.connectToShadowDb());
	}

	#remember(adapter: SqlDriverAdapter): SqlDriverAdapter {
		this.#open.push(adapter);
		return adapter;
	}

	async closeAll(): Promise<void> {
		for (const adapter of this.#open.splice(0)) await adapter.dispose().catch(() => undefined);
	}
}

/**
 * Once per process: the bindings module keeps views of the instance's memory, so a second
 * instance behind the same (cached) module would make it read another instance's memory.
 */
let engineBindings: Promise<{ SchemaEngine: typeof SchemaEngine }> | undefined;

async function instantiateEngine(): Promise<{ SchemaEngine: typeof SchemaEngine }> {
	const require = createRequire(import.meta.url);
	const bindingsPath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
	const bindings = await import(bindingsPath);
	// Node 20 cannot import .wasm as an ES module without a flag, so instantiate it by hand.
	const bytes = readFileSync(bindingsPath.replace(/\.js$/, '.wasm'));
	const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': bindings });
	bindings.__wbg_set_wasm(instance.exports);
	(instance.exports.__wbindgen_start as () => void)();
	return bindings;
}

/**
 * An in-memory SQLite for the engine's shadow database. The engine sends whole migration scripts
 * through executeRaw, which better-sqlite3 refuses for more than one statement: route those to
 * executeScript.
 */
class ShadowScriptFactory implements SqlMigrationAwareDriverAdapterFactory {
	readonly provider = 'sqlite' as const;
	readonly adapterName = '@prisma/adapter-better-sqlite3';
	readonly #inner = new PrismaBetterSqlite3({ url: ':memory:' });

	async connect(): Promise<SqlDriverAdapter> {
		return scriptTolerant(await this.#inner.connect());
	}

	async connectToShadowDb(): Promise<SqlDriverAdapter> {
		return scriptTolerant(await this.#inner.connectToShadowDb());
	}
}

function scriptTolerant(adapter: SqlDriverAdapter): SqlDriverAdapter {
	const executeRaw = adapter.executeRaw.bind(adapter);
	adapter.executeRaw = async (query) => {
		try {
			return await executeRaw(query);
		} catch (error) {
			if (!/more than one statement/i.test(String((error as { cause?: unknown }).cause ?? error))) throw error;
			await adapter.executeScript(query.sql);
			return 0;
		}
	};
	return adapter;
}

/**
 * The engine reports a Rust panic's message through this global before it aborts; without it the
 * panic surfaces as "cannot read set_message of undefined". Keep the message so it is printed.
 */
function installPanicRegistry(): void {
	const holder = globalThis as { PRISMA_WASM_PANIC_REGISTRY?: { set_message(message: string): void } };
	holder.PRISMA_WASM_PANIC_REGISTRY ??= {
		set_message(message: string) {
			console.error(`schema engine panicked: ${message}`);
		}
	};
}
