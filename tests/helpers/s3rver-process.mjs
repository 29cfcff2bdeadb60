// s3rver in a process of its own, as a real S3 service would be: `node --openssl-legacy-provider
// s3rver-process.mjs <folder> <bucket>` prints `{"port":N}` once it listens and runs until killed.
// The legacy provider is for its ListObjectsV2 continuation tokens, which it encrypts with DES
// (OpenSSL 3 leaves DES out by default).
import S3rver from '@20minutes/s3rver';

const [directory, bucket] = process.argv.slice(2);
// s3rver 4 computes a bucket-level request's signature over `/<bucket>` where the AWS SDK signs
// `/<bucket>/` (real S3 takes both), so mismatched signatures are let through; an unknown access
// key id is still refused.
const server = new S3rver({
	address: '127.0.0.1',
	port: 0,
	directory,
	silent: true,
	allowMismatchedSignatures: true,
	configureBuckets: [{ name: bucket }]
});
const { port } = await server.run();
process.stdout.write(`${JSON.stringify({ port })}\n`);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
