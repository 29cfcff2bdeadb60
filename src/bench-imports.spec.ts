import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * `npm run bench` runs each bench/*.ts under plain Node, where importing vitest throws ("Vitest failed
 * to access its internal state"). Benchmarks borrow the tests' worlds (a generation world, a test
 * database), so a helper that starts importing vitest for its hooks silently breaks a benchmark that
 * no test runs. This follows every relative import from each benchmark and fails on a module that
 * imports vitest, naming the chain. Test helpers keep their hooks apart from what benchmarks use
 * (`tests/helpers/create-test-db.ts` beside `test-db.ts`, `tests/integration/generation-world.ts`
 * beside `generation-harness.ts`).
 */
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BENCH = path.join(REPO, 'bench');
const RELATIVE_IMPORT =
	/(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
const IMPORTS_VITEST = /(?:^|\n)\s*import\b[^'"]*?['"]vitest['"]/;

describe('benchmarks run without vitest', () => {
	const benchmarks = readdirSync(BENCH)
		.filter((name) => /\.(ts|mjs)$/.test(name) && !name.endsWith('.spec.ts'))
		.map((name) => path.join(BENCH, name));

	it('reads the real benchmarks and follows their imports into the test helpers', () => {
		expect(benchmarks.map((file) => path.basename(file))).toContain('generation-pipeline.ts');
		const reached = [...importGraph(path.join(BENCH, 'generation-pipeline.ts')).keys()];
		expect(reached).toContain(path.join(REPO, 'tests/integration/generation-world.ts'));
		expect(reached).toContain(path.join(REPO, 'tests/helpers/create-test-db.ts'));
	});

	it('no benchmark reaches a module that imports vitest', () => {
		const broken = benchmarks.flatMap((file) => {
			const chain = chainToVitest(file);
			return chain ? [chain.map((step) => path.relative(REPO, step)).join(' → ')] : [];
		});
		expect(broken).toEqual([]);
	});

	it('finds such a chain when there is one', () => {
		expect(IMPORTS_VITEST.test("import { afterEach } from 'vitest';")).toBe(true);
		expect(IMPORTS_VITEST.test('// not vitest, a word in a comment')).toBe(false);
		expect(chainToVitest(path.join(REPO, 'tests/helpers/test-db.ts'))?.at(-1)).toBe(
			path.join(REPO, 'tests/helpers/test-db.ts')
		);
	});
});

interface Reached {
	/** The module that first imported it; null for the entry. */
	parent: string | null;
	importsVitest: boolean;
}

/** Every module `entry` reaches through relative imports, each read once. */
function importGraph(entry: string): Map<string, Reached> {
	const graph = new Map<string, Reached>();
	const pending: [string, string | null][] = [[entry, null]];
	for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
		const [file, parent] = next;
		if (graph.has(file)) continue;
		const source = readFileSync(file, 'utf8');
		graph.set(file, { parent, importsVitest: IMPORTS_VITEST.test(source) });
		for (const target of relativeImports(file, source)) pending.push([target, file]);
	}
	return graph;
}

/** The import chain from `entry` to a module that imports vitest, or null. */
function chainToVitest(entry: string): string[] | null {
	const graph = importGraph(entry);
	const importer = [...graph].find(([, reached]) => reached.importsVitest)?.[0];
	if (importer === undefined) return null;
	const chain: string[] = [];
	for (let file: string | null = importer; file !== null; file = graph.get(file)!.parent) chain.unshift(file);
	return chain;
}

/** Relative imports that name a file of ours (`.ts` paths, as the server modules write them). */
function relativeImports(file: string, source: string): string[] {
	return [...source.matchAll(RELATIVE_IMPORT)]
		.map((match) => match[1] ?? match[2])
		.filter((specifier) => specifier !== undefined)
		.map((specifier) => path.resolve(path.dirname(file), specifier))
		.filter((target) => existsSync(target) && /\.(ts|js|mjs)$/.test(target));
}
