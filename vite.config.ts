import { sveltekit } from '@sveltejs/kit/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin } from 'vite';
import { buildBundles } from './scripts/build-bundles.ts';

/**
 * Svelte's runtime, minus its mode flags: `flags/legacy.js` and friends switch a mode on when they
 * run, so they must run only where a component imports them. SvelteKit's own client stays out too:
 * moved into this chunk (another module order) it broke the kiosk's Start
 * in operator-walkthrough.e2e.ts, and SvelteKit itself avoids manual chunks for that reason.
 */
const FRAMEWORK_MODULE = /node_modules\/(svelte\/src\/internal\/(?!flags\/(legacy|async|tracing))|clsx\/|esm-env\/)/;

/**
 * Puts Svelte's runtime into one client chunk. Left to itself Rollup slices it by which routes
 * share which parts, so a console change re-sliced the landing page's files and moved it past its
 * 50 KB budget by a few hundred bytes. One chunk is smaller (fewer files, one gzip window), steady,
 * and its hash survives deploys that change only our code. The server build keeps Rollup's chunks.
 */
function frameworkChunk(): Plugin {
	return {
		name: 'framework-chunk',
		apply: 'build',
		outputOptions(options) {
			if (this.environment?.config.consumer !== 'client') return;
			return { ...options, manualChunks: (id) => (FRAMEWORK_MODULE.test(id) ? 'framework' : undefined) };
		}
	};
}

/**
 * `vite dev` serves the web from the sources, but the upload checker it starts runs from its bundle
 * (docs/development.md, "The Node bundles"): built when the dev server starts, as `npm start` does.
 */
function nodeBundlesForDev(): Plugin {
	return {
		name: 'node-bundles-for-dev',
		apply: 'serve',
		async configureServer() {
			await buildBundles();
		}
	};
}

export default defineConfig({
	// Tailwind builds the console's CSS (src/lib/styles/console.css); see docs/development.md "Design system".
	plugins: [tailwindcss(), sveltekit(), frameworkChunk(), nodeBundlesForDev()],
	server: { port: 5173 }
});
