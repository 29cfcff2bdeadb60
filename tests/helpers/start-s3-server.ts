import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { S3FileStore } from '../../src/lib/server/files/s3-file-store.ts';
import { PROJECT_ROOT } from './node-process.ts';

/**
 * Starting s3rver without vitest, so a plain Node script (the browser tests' PostgreSQL + S3
 * stack, tests/e2e/pg-s3-stack.ts; the fleet benchmark) can use it too; s3-server.ts adds
 * vitest's per-test helpers.
 */

/** s3rver's one built-in key pair; any other access key id is refused (403 InvalidAccessKeyId). */
export const S3RVER_KEY = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface S3TestServer {
	endpoint: string;
	bucket: string;
	/** The settings that point a process at this bucket. */
	env: Record<string, string>;
	/** Backdates an object's LastModified (s3rver reports its stored file's mtime). */
	ageObject(key: string, modifiedAt: Date): void;
	close(): Promise<void>;
}

/** A real S3-compatible server (s3rver, its own process) on a random port with its data in a temporary folder. */
export async function startS3Server(bucket = 'kiosk-files'): Promise<S3TestServer> {
	const directory = mkdtempSync(path.join(tmpdir(), 's3rver-'));
	const child = spawn(
		process.execPath,
		['--openssl-legacy-provider', path.join(PROJECT_ROOT, 'tests/helpers/s3rver-process.mjs'), directory, bucket],
		{
			cwd: PROJECT_ROOT,
			stdio: ['ignore', 'pipe', 'pipe']
		}
	);
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const port = await new Promise<number>((resolve, reject) => {
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			const line = /\{"port":(\d+)\}/.exec(output);
			if (line) resolve(Number(line[1]));
		});
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.once('exit', (code) => reject(new Error(`s3rver exited (${code}) before listening:\n${output}`)));
	});
	const endpoint = `http://127.0.0.1:${port}`;
	return {
		endpoint,
		bucket,
		env: {
			FILE_STORE: 's3',
			FILE_STORE_S3_BUCKET: bucket,
			FILE_STORE_S3_ENDPOINT: endpoint,
			FILE_STORE_S3_REGION: 'us-east-1',
			FILE_STORE_S3_ACCESS_KEY_ID: S3RVER_KEY.accessKeyId,
			FILE_STORE_S3_SECRET_ACCESS_KEY: S3RVER_KEY.secretAccessKey
		},
		ageObject(key, modifiedAt) {
			const parts = key.split('/');
			const file = path.join(directory, bucket, ...parts.slice(0, -1), `${parts.at(-1)}._S3rver_object`);
			utimesSync(file, modifiedAt, modifiedAt);
		},
		async close() {
			if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
			await exited;
			rmSync(directory, { recursive: true, force: true });
		}
	};
}

/** The product's store on a test server's bucket. */
export function bucketStore(server: S3TestServer): S3FileStore {
	return new S3FileStore({
		bucket: server.bucket,
		region: 'us-east-1',
		endpoint: server.endpoint,
		forcePathStyle: true,
		credentials: S3RVER_KEY
	});
}
