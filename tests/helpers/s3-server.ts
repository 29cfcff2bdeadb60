import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from '@20minutes/s3rver';
import { afterEach } from 'vitest';

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

/** A real S3-compatible server (s3rver) on a random port with its data in a temporary folder. */
export async function startS3Server(bucket = 'kiosk-files'): Promise<S3TestServer> {
	const directory = mkdtempSync(path.join(tmpdir(), 's3rver-'));
	// s3rver 4 computes a bucket-level request's signature over `/<bucket>` where the AWS SDK signs
	// `/<bucket>/` (real S3 takes both), so it is told to let mismatched signatures pass; an
	// unknown access key id is still refused.
	const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, allowMismatchedSignatures: true, configureBuckets: [{ name: bucket }] });
	const { port } = await server.run();
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
			await server.close();
			rmSync(directory, { recursive: true, force: true });
		}
	};
}

/** One server per test, closed after it. */
export function useS3Server(): (bucket?: string) => Promise<S3TestServer> {
	const servers: S3TestServer[] = [];
	afterEach(async () => {
		for (const server of servers.splice(0)) await server.close();
	});
	return async (bucket) => {
		const server = await startS3Server(bucket);
		servers.push(server);
		return server;
	};
}
