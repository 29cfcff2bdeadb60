import {
	DeleteObjectCommand,
	GetObjectCommand,
	HeadBucketCommand,
	HeadObjectCommand,
	ListObjectsV2Command,
	PutObjectCommand,
	S3Client,
	S3ServiceException
} from '@aws-sdk/client-s3';
import path from 'node:path';
import {
	assertValidKey,
	FileStoreUnusable,
	folderPrefix,
	isValidKey,
	type FileStore,
	type StoredFile
} from './file-store.ts';

export interface S3Settings {
	bucket: string;
	region: string;
	/** For R2, MinIO or a local test server; AWS S3 itself needs none. */
	endpoint?: string;
	forcePathStyle: boolean;
	credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

const CONTENT_TYPES: Record<string, string> = {
	'.png': 'image/png',
	'.jpg': 'image/jpeg',
	'.jpeg': 'image/jpeg',
	'.webp': 'image/webp',
	'.json': 'application/json'
};

const statusOf = (error: unknown) => (error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined);
const isMissing = (error: unknown) =>
	statusOf(error) === 404 ||
	(error as { name?: string }).name === 'NoSuchKey' ||
	(error as { name?: string }).name === 'NotFound';

/**
 * Files in one S3-compatible bucket (AWS S3, Cloudflare R2, MinIO), keys as on the local store. A
 * PUT makes the whole object appear at once, so writes are atomic without a temporary name.
 */
export class S3FileStore implements FileStore {
	readonly kind = 's3';
	private readonly client: S3Client;

	constructor(private readonly settings: S3Settings) {
		this.client = new S3Client({
			region: settings.region,
			...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
			forcePathStyle: settings.forcePathStyle,
			credentials: settings.credentials
		});
	}

	get bucket(): string {
		return this.settings.bucket;
	}

	/** HeadBucket: the bucket exists and these credentials may use it; otherwise a sentence saying which. */
	async checkAccess(): Promise<void> {
		try {
			await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
		} catch (error) {
			const status = statusOf(error);
			const where = this.settings.endpoint ?? `S3 in ${this.settings.region}`;
			if (status === 404)
				throw new FileStoreUnusable(`FILE_STORE_S3_BUCKET: the bucket "${this.bucket}" does not exist at ${where}`);
			if (status === 403 || status === 401)
				throw new FileStoreUnusable(
					`FILE_STORE_S3_BUCKET: the bucket "${this.bucket}" at ${where} refuses these credentials (check the access key and secret, and the bucket's policy)`
				);
			throw new FileStoreUnusable(
				`FILE_STORE_S3_ENDPOINT: cannot reach the bucket "${this.bucket}" at ${where}: ${(error as Error).message}`
			);
		}
	}

	async put(key: string, data: Buffer | string): Promise<void> {
		assertValidKey(key);
		const contentType = CONTENT_TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream';
		await this.client.send(
			new PutObjectCommand({
				Bucket: this.bucket,
				Key: key,
				Body: typeof data === 'string' ? Buffer.from(data) : data,
				ContentType: contentType
			})
		);
	}

	async get(key: string): Promise<Buffer | null> {
		assertValidKey(key);
		try {
			const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
			return answer.Body ? Buffer.from(await answer.Body.transformToByteArray()) : Buffer.alloc(0);
		} catch (error) {
			if (isMissing(error)) return null;
			throw error;
		}
	}

	async stat(key: string): Promise<StoredFile | null> {
		assertValidKey(key);
		try {
			const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
			return { key, bytes: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date(0) };
		} catch (error) {
			if (isMissing(error)) return null;
			throw error;
		}
	}

	async delete(key: string): Promise<void> {
		assertValidKey(key);
		await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
	}

	async list(prefix: string): Promise<StoredFile[]> {
		const files: StoredFile[] = [];
		let continuationToken: string | undefined;
		do {
			const page = await this.client.send(
				new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: continuationToken })
			);
			for (const object of page.Contents ?? []) {
				if (!object.Key || !isValidKey(object.Key)) continue; // an object someone else put there is not ours to touch
				files.push({ key: object.Key, bytes: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date(0) });
			}
			continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
		} while (continuationToken);
		return files.sort((a, b) => a.key.localeCompare(b.key));
	}

	async deleteFolder(prefix: string): Promise<void> {
		const folder = folderPrefix(prefix);
		assertValidKey(folder.slice(0, -1));
		for (const file of await this.list(folder)) await this.delete(file.key);
	}

	/** A bucket has no folders: a key's "folder" goes with its last object. */
	async removeEmptyFolders(): Promise<number> {
		return 0;
	}

	reference(key: string): string {
		assertValidKey(key);
		return key;
	}

	/** A local absolute path (a job queued before the move to a bucket) has no key here. */
	keyOf(reference: string): string | null {
		return isValidKey(reference) ? reference : null;
	}

	close(): void {
		this.client.destroy();
	}
}
