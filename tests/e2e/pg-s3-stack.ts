import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { databaseUrl, onServer, startPgCluster } from '../helpers/pg-cluster.ts';
import { startS3Server } from '../helpers/start-s3-server.ts';

/**
 * The product for the browser tests' `postgres-s3` project (playwright.config.ts runs this as a
 * webServer): a throwaway PostgreSQL cluster and s3rver, then scripts/run-all.ts on them —
 * DATABASE_URL instead of DB_PATH, FILE_STORE=s3 — with the ports and DATA_DIR Playwright gives.
 * Once /health answers it prints one "ready" line naming the database and the bucket, which
 * Playwright reads into the tests' environment (their ports are random). SIGTERM or SIGINT stops
 * the product first, then s3rver and the cluster, and removes their temporary folders.
 */
const DATABASE = 'kiosk_e2e';
const BUCKET = 'kiosk-e2e';
/** Playwright's webServer timeout is 120 s; the start takes a few seconds. */
const READY_WITHIN_MS = 110_000;

const cleanups: (() => Promise<void>)[] = [];
let stopping: Promise<never> | undefined;

function stop(code: number): Promise<never> {
	stopping ??= (async () => {
		for (const cleanup of cleanups.reverse()) {
			await cleanup().catch((error: unknown) => console.error(`pg-s3 stack: ${(error as Error).message}`));
		}
		process.exit(code);
	})();
	return stopping;
}

function startProduct(env: NodeJS.ProcessEnv): ChildProcess {
	const product = spawn(process.execPath, ['--import', 'tsx', 'scripts/run-all.ts'], {
		env,
		stdio: ['ignore', 'inherit', 'inherit']
	});
	const exited = new Promise<void>((resolve) => product.once('exit', () => resolve()));
	product.once('exit', (code) => {
		if (!stopping) console.error(`pg-s3 stack: the product exited (code ${code}); stopping the stack`);
		void stop(1);
	});
	cleanups.push(async () => {
		if (product.exitCode === null && product.signalCode === null) product.kill('SIGTERM');
		await exited;
	});
	return product;
}

async function waitUntilServing(healthUrl: string): Promise<void> {
	const deadline = Date.now() + READY_WITHIN_MS;
	while (Date.now() < deadline) {
		const status = await fetch(healthUrl).then(
			(r) => r.status,
			() => 0
		);
		if (status === 200) return;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	throw new Error(`${healthUrl} did not answer 200 within ${READY_WITHIN_MS / 1000} s`);
}

async function main(): Promise<void> {
	const dataDir = process.env.DATA_DIR;
	const baseUrl = process.env.PUBLIC_BASE_URL;
	if (!dataDir || !baseUrl)
		throw new Error('DATA_DIR and PUBLIC_BASE_URL must be set (playwright.config.ts sets them)');
	rmSync(dataDir, { recursive: true, force: true });

	const cluster = await startPgCluster();
	cleanups.push(() => cluster.stop());
	await onServer(cluster.url, `CREATE DATABASE ${DATABASE}`);
	const url = databaseUrl(cluster.url, DATABASE);
	const s3 = await startS3Server(BUCKET);
	cleanups.push(() => s3.close());

	const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: url, ...s3.env };
	delete env.DB_PATH;
	startProduct(env);
	await waitUntilServing(`${baseUrl}/health`);
	console.log(`pg-s3 stack ready: database ${url} bucket ${s3.endpoint}/${BUCKET}`);
}

process.on('SIGTERM', () => void stop(0));
process.on('SIGINT', () => void stop(0));
main().catch((error: unknown) => {
	console.error(`pg-s3 stack: ${(error as Error).message}`);
	void stop(1);
});
