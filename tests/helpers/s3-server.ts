import { afterEach } from 'vitest';
import { bucketStore, S3RVER_KEY, startS3Server, type S3TestServer } from './start-s3-server.ts';

export { bucketStore, S3RVER_KEY, startS3Server, type S3TestServer };

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
