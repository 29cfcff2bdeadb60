import type { TestProject } from 'vitest/node';
import { createMigratedTemplate, startPgCluster } from './pg-cluster.ts';

declare module 'vitest' {
	export interface ProvidedContext {
		/** The throwaway cluster's server URL (maintenance database `postgres`). */
		pgServerUrl: string;
	}
}

/**
 * vitest globalSetup of the `postgres` project: one throwaway cluster per run, with the migrated
 * template database; test files read the URL with inject('pgServerUrl'). The returned teardown
 * stops the cluster whether the tests passed or not (and the cluster stops itself if this process
 * exits first).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
	const cluster = await startPgCluster();
	try {
		await createMigratedTemplate(cluster.url);
	} catch (error) {
		await cluster.stop();
		throw error;
	}
	project.provide('pgServerUrl', cluster.url);
	// Also in the environment the test processes inherit, for createTestDb under TEST_DB_ENGINE=postgresql.
	process.env.KIOSK_TEST_PG_SERVER_URL = cluster.url;
	return () => cluster.stop();
}
