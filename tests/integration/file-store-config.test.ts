import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/lib/server/config/config.ts';
import { openFileStore, s3Settings } from '../../src/lib/server/files/open-file-store.ts';
import { LocalFileStore } from '../../src/lib/server/files/local-file-store.ts';
import { FileStoreUnusable } from '../../src/lib/server/files/file-store.ts';
import { exitOrKill, spawnBuiltWeb } from '../helpers/built-web.ts';
import { PROCESS_WAIT_MS, PROJECT_ROOT, runBuiltWorker } from '../helpers/node-process.ts';
import { useS3Server } from '../helpers/s3-server.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

/** No AWS settings leak in from the machine running the tests. */
const NO_AWS = { AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_SESSION_TOKEN: '', AWS_REGION: '' };

function configError(env: Record<string, string>): string {
	try {
		parseConfig({ NODE_ENV: 'test', ...NO_AWS, ...env }, PROJECT_ROOT);
	} catch (error) {
		if (error instanceof ConfigError) return error.message;
		throw error;
	}
	return '';
}

async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise((resolve) => server.close(resolve));
	return port;
}

describe('FILE_STORE settings', () => {
	const tempDir = useTempDir('file-store-config-');
	const s3Server = useS3Server();

	it('local is the default: the store is DATA_DIR', async () => {
		const dataDir = tempDir();
		const store = await openFileStore(parseConfig({ NODE_ENV: 'test', DATA_DIR: dataDir }, PROJECT_ROOT));
		expect(store).toBeInstanceOf(LocalFileStore);
		expect((store as LocalFileStore).root).toBe(dataDir);
	});

	it('FILE_STORE=s3 without a bucket or credentials is refused, naming each setting', () => {
		const message = configError({ FILE_STORE: 's3' });
		expect(message).toContain('FILE_STORE_S3_BUCKET is required when FILE_STORE=s3');
		expect(message).toContain('FILE_STORE_S3_ACCESS_KEY_ID is required when FILE_STORE=s3');
		expect(configError({ FILE_STORE: 's3', FILE_STORE_S3_BUCKET: 'b', FILE_STORE_S3_ACCESS_KEY_ID: 'id' })).toContain(
			'FILE_STORE_S3_SECRET_ACCESS_KEY is required with the other of the pair'
		);
		expect(configError({ FILE_STORE: 's3', FILE_STORE_S3_BUCKET: 'b', AWS_ACCESS_KEY_ID: 'id' })).toContain(
			'FILE_STORE_S3_ACCESS_KEY_ID is required when FILE_STORE=s3'
		);
		expect(configError({ FILE_STORE: 'disk' })).toContain('FILE_STORE must be local or s3');
		expect(
			configError({
				FILE_STORE: 's3',
				FILE_STORE_S3_BUCKET: 'b',
				AWS_ACCESS_KEY_ID: 'id',
				AWS_SECRET_ACCESS_KEY: 'secret'
			})
		).toBe('');
	});

	it('the product’s own key pair wins over the AWS one; path-style is the default with an endpoint', () => {
		const config = parseConfig(
			{
				NODE_ENV: 'test',
				...NO_AWS,
				FILE_STORE: 's3',
				FILE_STORE_S3_BUCKET: 'b',
				FILE_STORE_S3_ENDPOINT: 'http://127.0.0.1:9000',
				FILE_STORE_S3_ACCESS_KEY_ID: 'own',
				FILE_STORE_S3_SECRET_ACCESS_KEY: 's',
				AWS_ACCESS_KEY_ID: 'aws',
				AWS_SECRET_ACCESS_KEY: 'a',
				AWS_REGION: 'eu-west-1'
			},
			PROJECT_ROOT
		);
		expect(s3Settings(config)).toEqual({
			bucket: 'b',
			region: 'eu-west-1',
			endpoint: 'http://127.0.0.1:9000',
			forcePathStyle: true,
			credentials: { accessKeyId: 'own', secretAccessKey: 's' }
		});
		const onAws = parseConfig(
			{
				NODE_ENV: 'test',
				...NO_AWS,
				FILE_STORE: 's3',
				FILE_STORE_S3_BUCKET: 'b',
				AWS_ACCESS_KEY_ID: 'aws',
				AWS_SECRET_ACCESS_KEY: 'a'
			},
			PROJECT_ROOT
		);
		expect(s3Settings(onAws)).toEqual({
			bucket: 'b',
			region: 'us-east-1',
			forcePathStyle: false,
			credentials: { accessKeyId: 'aws', secretAccessKey: 'a' }
		});
	});

	it('a bucket that does not exist, refuses the credentials or cannot be reached stops the start with a sentence', async () => {
		const server = await s3Server();
		const config = (env: Record<string, string>) =>
			parseConfig({ NODE_ENV: 'test', ...NO_AWS, ...server.env, ...env }, PROJECT_ROOT);
		await expect(openFileStore(config({}))).resolves.toMatchObject({ kind: 's3' });
		await expect(openFileStore(config({ FILE_STORE_S3_BUCKET: 'no-such-bucket' }))).rejects.toThrow(
			new FileStoreUnusable(`FILE_STORE_S3_BUCKET: the bucket "no-such-bucket" does not exist at ${server.endpoint}`)
		);
		await expect(openFileStore(config({ FILE_STORE_S3_ACCESS_KEY_ID: 'NOT-A-KEY' }))).rejects.toThrow(
			/the bucket "kiosk-files" at http:\/\/127\.0\.0\.1:\d+ refuses these credentials/
		);
		const nowhere = `http://127.0.0.1:${await closedPort()}`;
		await expect(openFileStore(config({ FILE_STORE_S3_ENDPOINT: nowhere }))).rejects.toThrow(
			`FILE_STORE_S3_ENDPOINT: cannot reach the bucket "kiosk-files" at ${nowhere}`
		);
	}, 30_000);

	it('the worker refuses to start on a missing bucket and without credentials, before taking any work', async () => {
		const server = await s3Server();
		const dataDir = tempDir();
		const env = {
			...NO_AWS,
			...server.env,
			NODE_ENV: 'test',
			DATA_DIR: dataDir,
			DB_PATH: `${dataDir}/app.db`,
			TELEGRAM_API_ROOT: 'http://127.0.0.1:9'
		};
		const missing = await runBuiltWorker({ env: { ...env, FILE_STORE_S3_BUCKET: 'gone' } });
		expect(missing.code).toBe(1);
		expect(missing.stderr).toContain('worker refuses to start: FILE_STORE_S3_BUCKET: the bucket "gone" does not exist');
		expect(missing.stdout).not.toContain('worker started');
		const keyless = await runBuiltWorker({
			env: { ...env, FILE_STORE_S3_ACCESS_KEY_ID: '', FILE_STORE_S3_SECRET_ACCESS_KEY: '' }
		});
		expect(keyless.code).toBe(1);
		expect(keyless.stderr).toContain('worker refuses to start: Invalid configuration');
		expect(keyless.stderr).toContain('FILE_STORE_S3_ACCESS_KEY_ID is required when FILE_STORE=s3');
	}, 60_000);

	it('the built web process refuses to start on a bucket that refuses its key (needs `npx vite build`)', async () => {
		const server = await s3Server();
		const dataDir = tempDir();
		const env = { ...NO_AWS, ...server.env, NODE_ENV: 'test', FILE_STORE_S3_ACCESS_KEY_ID: 'NOT-A-KEY' };
		const web = await exitOrKill(spawnBuiltWeb({ port: await closedPort(), dataDir, env }), PROCESS_WAIT_MS);
		expect(web.code).toBe(1);
		expect(web.stdout).not.toContain('web process ready');
		expect(web.stderr).toMatch(
			/web process refuses to start: FILE_STORE_S3_BUCKET: the bucket "kiosk-files" at http:\/\/127\.0\.0\.1:\d+ refuses these credentials/
		);
	}, 30_000);
});
