import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KIOSK_SPECS } from '../../playwright.config.ts';
import { PROJECT_ROOT } from '../helpers/node-process.ts';

/**
 * The `sqlite-kiosk` project's specs run on a product of their own (playwright.config.ts). A spec
 * moved there that still named the `sqlite` project's product (its ports or data folder) would
 * talk to the other product while the other project's specs change it: it must take its product
 * from the `product` fixture or console-operator.ts, which follow the running project.
 */
// The config's constants by name, or an import of the config (where they live).
const OTHER_PRODUCT = /\bE2E_(PORT|EMULATOR_PORT|BASE_URL|DATA_DIR)\b|from '[./]*playwright\.config\.ts'/;

const E2E_DIR = path.join(PROJECT_ROOT, 'tests', 'e2e');

/** The spec and the tests/e2e modules it imports, and theirs. */
function withLocalImports(spec: string, seen = new Set<string>()): Set<string> {
	if (seen.has(spec)) return seen;
	seen.add(spec);
	const source = readFileSync(path.join(E2E_DIR, spec), 'utf8');
	for (const [, local] of source.matchAll(/from '\.\/([\w.-]+\.ts)'/g)) withLocalImports(local!, seen);
	return seen;
}

describe("the sqlite-kiosk project's specs", () => {
	it.each(KIOSK_SPECS)('%s and its helpers never name the sqlite project’s product', (spec) => {
		const files = [...withLocalImports(spec)];
		expect(files.length).toBeGreaterThan(0);
		const naming = files.flatMap((file) =>
			readFileSync(path.join(E2E_DIR, file), 'utf8')
				.split('\n')
				.filter((line) => OTHER_PRODUCT.test(line))
				.map((line) => `${file}: ${line.trim()}`)
		);
		expect(naming).toEqual([]);
	});
});
