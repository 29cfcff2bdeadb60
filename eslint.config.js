// `npm run lint`: Prettier's check, then ESLint's recommended rules for TypeScript and Svelte.
// Style is Prettier's alone (eslint-config-prettier turns ESLint's style rules off).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';
import svelteConfig from './svelte.config.js';

export default ts.config(
	{
		ignores: [
			'build/',
			'.svelte-kit/',
			'.tmp/',
			'data/',
			'test-results/',
			'playwright-report/',
			'src/lib/server/db/generated/',
			'src/lib/server/db/generated-pg/'
		]
	},
	js.configs.recommended,
	...ts.configs.recommended,
	...svelte.configs.recommended,
	prettier,
	...svelte.configs.prettier,
	{ languageOptions: { globals: { ...globals.browser, ...globals.node } } },
	{
		// Type information for the Svelte rules that need it (svelte/no-unused-props). TypeScript
		// rebuilds its program for each component it is handed, so the program is the components'
		// own (tsconfig.svelte-lint.json: the components and what they import, ~1,400 files) rather than
		// the project service's whole project (~6,800 with the tests and tools): ESLint on the
		// components 63 → 42 s (docs/development.md, "Suite time").
		files: ['**/*.svelte', '**/*.svelte.ts'],
		languageOptions: {
			parserOptions: {
				project: './tsconfig.svelte-lint.json',
				extraFileExtensions: ['.svelte'],
				parser: ts.parser,
				svelteConfig
			}
		}
	},
	{
		rules: {
			// Unused names are errors, except a leading underscore, which says "unused on purpose".
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }
			],
			// The product is served at the site root (no `paths.base` in svelte.config.js), so a plain
			// path is the resolved one; resolve() would add nothing but noise to every link.
			'svelte/no-navigation-without-resolve': 'off',
			// Prettier writes {' '} to keep a space that a line break would otherwise lose.
			'svelte/no-useless-mustaches': 'off',
			// The product has no stores (Svelte 5 runes, $app/state), so the store rule found nothing
			// while asking the type checker about every expression of every component: half of ESLint's
			// time on .svelte files (docs/development.md, "Suite time"). Stores stay out by import.
			'svelte/require-store-reactive-access': 'off',
			'no-restricted-imports': [
				'error',
				{
					paths: [
						{ name: 'svelte/store', message: 'State is runes ($state, $derived), not stores.' },
						{ name: '$app/stores', message: 'Use $app/state (Svelte 5), not the $app/stores stores.' }
					]
				}
			]
		}
	},
	{
		// Test files share their processes (vitest.config.ts: forks, not isolated), so a
		// file must leave nothing behind that the next file in the same process would inherit.
		files: ['tests/**/*.ts', 'src/**/*.spec.ts', 'tools/**/*.spec.ts'],
		// vitest's global setups run once in vitest's own process, before any test file.
		ignores: ['tests/helpers/*-global-setup.ts', 'tests/helpers/*-template-setup.ts', 'tests/e2e/**'],
		rules: {
			'no-restricted-properties': [
				'error',
				...['mock', 'doMock', 'stubEnv', 'stubGlobal', 'useFakeTimers'].map((property) => ({
					object: 'vi',
					property,
					message:
						'Test files share a process with the next file: pass a fake (FakeClock, a stand-in) instead of changing the module or global.'
				}))
			],
			'no-restricted-syntax': [
				'error',
				{
					selector:
						"AssignmentExpression > MemberExpression.left[object.object.name='process'][object.property.name='env'], UnaryExpression[operator='delete'] > MemberExpression[object.object.name='process'][object.property.name='env']",
					message:
						'Test files share a process with the next file: give the child process or the config its own env instead of writing process.env.'
				}
			]
		}
	}
);
