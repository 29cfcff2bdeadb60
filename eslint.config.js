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
		files: ['**/*.svelte', '**/*.svelte.ts'],
		languageOptions: {
			parserOptions: { projectService: true, extraFileExtensions: ['.svelte'], parser: ts.parser, svelteConfig }
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
	}
);
