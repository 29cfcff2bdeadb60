import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { bindMigrationAwareSqlAdapterFactory, type SqlDriverAdapter, type SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SchemaEngine } from '@prisma/schema-engine-wasm';

/**
 * Prisma's schema engine as WebAssembly (npm `@prisma/schema-engine-wasm`), because the CLI's
 * native engine is downloaded from outside the npm registry and that fails on our machines.
 * Used only to *write* new migrations (`npm run db:new-migration`); applying them is our own code.
 */
export async function loadSchemaEngine(datamodel: { path: string; content: string }): Promise<SchemaEngine> {
	const require = createRequire(import.meta.url);
	const bindingsPath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
	const bindings = await import(bindingsPath);
	// Node 20 cannot import .wasm as an ES module without a flag, so instantiate it by hand.
	const bytes = readFileSync(bindingsPath.replace(/\.js$/, '.wasm'));
	const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': bindings });
	bindings.__wbg_set_wasm(instance.exports);
	(instance.exports.__wbindgen_start as () => void)();
	const adapter = bindMigrationAwareSqlAdapterFactory(new ShadowScriptFactory());
	const log = () => undefined;
	return bindings.SchemaEngine.new({ datamodels: [[datamodel.path, datamodel.content]] }, log, adapter);
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
