import path from 'node:path';

/**
 * The product's Node processes that Vite does not build — the worker, and the upload checker the
 * web process starts — each bundled into one ES module under build/node/ by
 * scripts/build-bundles.ts (docs/development.md, "The Node bundles"). They run with source maps
 * on, so a stack trace in a log names our .ts file and line, not the bundle's.
 */
export const NODE_BUNDLES = {
	worker: { entry: 'src/worker/main.ts', bundle: 'build/node/worker.js' },
	uploadChecker: {
		entry: 'src/lib/server/media/upload-checker/checker-child.ts',
		bundle: 'build/node/upload-checker.js'
	}
} as const;

export type NodeBundle = keyof typeof NODE_BUNDLES;

/** Node's flags for every bundle: the systemd unit and package.json spell the same. */
export const BUNDLE_NODE_FLAGS = ['--enable-source-maps'];

export function bundlePath(root: string, name: NodeBundle): string {
	return path.join(root, NODE_BUNDLES[name].bundle);
}

/** `node`'s arguments that run a bundle (without the node binary itself). */
export function bundleNodeArgs(root: string, name: NodeBundle): string[] {
	return [...BUNDLE_NODE_FLAGS, bundlePath(root, name)];
}
