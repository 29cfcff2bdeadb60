import type { Config } from '../config/config.ts';
import type { FileStore } from './file-store.ts';
import { LocalFileStore } from './local-file-store.ts';
import type { S3Settings } from './s3-file-store.ts';

type FileStoreEnv = Pick<
	Config,
	| 'dataDir'
	| 'FILE_STORE'
	| 'FILE_STORE_S3_BUCKET'
	| 'FILE_STORE_S3_REGION'
	| 'FILE_STORE_S3_ENDPOINT'
	| 'FILE_STORE_S3_FORCE_PATH_STYLE'
	| 'FILE_STORE_S3_ACCESS_KEY_ID'
	| 'FILE_STORE_S3_SECRET_ACCESS_KEY'
	| 'AWS_ACCESS_KEY_ID'
	| 'AWS_SECRET_ACCESS_KEY'
	| 'AWS_SESSION_TOKEN'
	| 'AWS_REGION'
>;

/**
 * The bucket settings of FILE_STORE=s3 (the schema has made sure the bucket and a key pair are
 * there). The product's own FILE_STORE_S3_* keys win over the standard AWS ones; path-style
 * addressing is the default with an endpoint, since MinIO and most local servers need it.
 */
export function s3Settings(config: FileStoreEnv): S3Settings {
	const own = config.FILE_STORE_S3_ACCESS_KEY_ID && config.FILE_STORE_S3_SECRET_ACCESS_KEY;
	const credentials = own
		? { accessKeyId: config.FILE_STORE_S3_ACCESS_KEY_ID!, secretAccessKey: config.FILE_STORE_S3_SECRET_ACCESS_KEY! }
		: {
				accessKeyId: config.AWS_ACCESS_KEY_ID ?? '',
				secretAccessKey: config.AWS_SECRET_ACCESS_KEY ?? '',
				...(config.AWS_SESSION_TOKEN ? { sessionToken: config.AWS_SESSION_TOKEN } : {})
			};
	const forcePathStyle = config.FILE_STORE_S3_FORCE_PATH_STYLE
		? config.FILE_STORE_S3_FORCE_PATH_STYLE === '1'
		: Boolean(config.FILE_STORE_S3_ENDPOINT);
	return {
		bucket: config.FILE_STORE_S3_BUCKET ?? '',
		region: config.FILE_STORE_S3_REGION ?? config.AWS_REGION ?? 'us-east-1',
		...(config.FILE_STORE_S3_ENDPOINT ? { endpoint: config.FILE_STORE_S3_ENDPOINT } : {}),
		forcePathStyle,
		credentials
	};
}

/**
 * The process's file store, checked before the process takes any work: a bucket that does not
 * exist or refuses the credentials stops the start with FileStoreUnusable naming the setting.
 */
export async function openFileStore(config: FileStoreEnv): Promise<FileStore> {
	if (config.FILE_STORE === 'local') return new LocalFileStore(config.dataDir);
	// The AWS SDK is loaded only for a bucket: a local install never pays for it at start.
	const { S3FileStore } = await import('./s3-file-store.ts');
	const store = new S3FileStore(s3Settings(config));
	try {
		await store.checkAccess();
	} catch (error) {
		store.close();
		throw error;
	}
	return store;
}
