import { buildBundles } from '../../scripts/build-bundles.ts';

/**
 * vitest globalSetup of the projects that start product processes: the worker and upload checker
 * bundles (build/node/, what production runs) are built from the sources once per run, a few
 * tenths of a second, so a test never starts a bundle older than the code it tests.
 */
export default async function setup(): Promise<void> {
	await buildBundles();
}
