import { afterEach } from 'vitest';
import { S3FileStore } from '../../src/lib/server/files/s3-file-store.ts';
import { S3RVER_KEY, startS3Server, type S3TestServer } from './start-s3-server.ts';

export { S3RVER_KEY, startS3Server, type S3TestServer };

/** The product's store on a test server's bucket. */
export function bucketStore(server: S3TestServer): S3FileStore {
	return new S3FileStore({ bucket: server.bucket, region: 'us-east-1', endpoint: server.endpoint, forcePathStyle: true, credentials: S3RVER_KEY });
}

/** One server per test, stopped after it. */
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
