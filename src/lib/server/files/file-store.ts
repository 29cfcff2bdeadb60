/**
 * Where guest files live: a folder (DATA_DIR) or an S3-compatible bucket. Keys are paths relative
 * to DATA_DIR with `/` between segments (`sessions/<token>/face_crop.jpg`,
 * `debug_sheets/job<id>_<name>`), so the local store is the folder layout it always was and a
 * bucket holds the same names.
 */
export interface StoredFile {
	key: string;
	bytes: number;
	modifiedAt: Date;
}

export interface EmptyFolderRule {
	olderThan: Date;
	emptied: readonly string[];
}

export interface FileStore {
	readonly kind: 'local' | 's3';
	/** Stores the whole file or nothing: a reader never sees half of it under its key. */
	put(key: string, data: Buffer | string): Promise<void>;
	/** The file's bytes, or null when there is no such file. */
	get(key: string): Promise<Buffer | null>;
	stat(key: string): Promise<StoredFile | null>;
	/** Deletes one file; a missing one is not an error. */
	delete(key: string): Promise<void>;
	/** Every file whose key starts with `prefix` (at any depth), with its size and modified time. */
	list(prefix: string): Promise<StoredFile[]>;
	/** Deletes every file under the folder `prefix` (a key without the trailing `/`). */
	deleteFolder(prefix: string): Promise<void>;
	/**
	 * Removes the folders left empty below the folder `prefix` (never `prefix` itself), bottom-up:
	 * those that held a key of `emptied` (files just deleted) and those untouched since `olderThan`;
	 * a folder just made for an upload and not yet written to stays. Returns how many went. A bucket
	 * has no folders and removes none.
	 */
	removeEmptyFolders(prefix: string, rule: EmptyFolderRule): Promise<number>;
	/**
	 * What the database keeps for a stored file (the job's photo): the absolute path on a local
	 * store, as it always was, the key on a bucket. `keyOf` reads it back.
	 */
	reference(key: string): string;
	keyOf(reference: string): string | null;
}

/** Why the configured store cannot be used, in words for the person starting the process. */
export class FileStoreUnusable extends Error {
	override name = 'FileStoreUnusable';
}

const SEGMENT = /^[A-Za-z0-9_.-]+$/;

/** A key must be relative segments without `..`: a stored value can never reach outside the store. */
export function isValidKey(key: string): boolean {
	const parts = key.split('/');
	return parts.every((part) => SEGMENT.test(part) && part !== '.' && part !== '..');
}

export function assertValidKey(key: string): void {
	if (!isValidKey(key)) throw new Error(`not a file store key: ${JSON.stringify(key)}`);
}

/** Keys under a folder: `folder/` plus its files' names. */
export function folderPrefix(folder: string): string {
	return folder.endsWith('/') ? folder : `${folder}/`;
}

export async function exists(store: FileStore, key: string): Promise<boolean> {
	return (await store.stat(key)) !== null;
}
