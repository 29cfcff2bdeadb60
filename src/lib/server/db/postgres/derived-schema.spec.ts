import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { derivePostgresSchema, readPostgresSchema } from './derived-schema.ts';

const ROOT = path.resolve(import.meta.dirname, '../../../../..');

describe('the PostgreSQL schema derived from prisma/schema.prisma', () => {
	it('differs from the SQLite schema only in the provider and the client folder', () => {
		const sqlite = readFileSync(path.join(ROOT, 'prisma/schema.prisma'), 'utf8').split('\n');
		const derived = readPostgresSchema(ROOT).content.split('\n');
		const body = derived.slice(derived.length - sqlite.length);
		const changed = sqlite.flatMap((line, i) => (line === body[i] ? [] : [[line.trim(), body[i]?.trim()]]));
		expect(changed).toEqual([
			['output       = "../src/lib/server/db/generated"', 'output       = "../src/lib/server/db/generated-pg"'],
			['provider = "sqlite"', 'provider = "postgresql"']
		]);
		expect(derived.slice(0, derived.length - sqlite.length).every((line) => line === '' || line.startsWith('//'))).toBe(
			true
		);
	});

	it('refuses a schema whose provider or output line it cannot find exactly once', () => {
		expect(() => derivePostgresSchema('datasource db {\n  provider = "postgresql"\n}\n')).toThrow(
			/expected one line matching/
		);
		const twice =
			'generator client {\n  output = "../src/lib/server/db/generated"\n}\ndatasource db {\n  provider = "sqlite"\n  provider = "sqlite"\n}\n';
		expect(() => derivePostgresSchema(twice)).toThrow(/found 2/);
	});
});
