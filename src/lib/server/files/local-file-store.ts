import { randomUUID } from 'node:crypto';
import { promises as fsp, type Dirent } from 'node:fs';
import path from 'node:path';
import { assertValidKey, folderPrefix, isValidKey, type FileStore, type StoredFile } from './file-store.ts';

/** Writes to a temporary name and renames, so a crash never leaves half a file under the real name. */
export async function writeFileAtomic(file: string, data: Buffer | string): Promise<void> {
	// Folders of guest files are the service's own, like the files (mode 600).
	await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
	// Unique per write: two writers of one file (a job claimed again while a frozen slot still runs) never share a temp name.
	const temp = `${file}.${process.pid}.${randomUUID()}.tmp`;
	await fsp.writeFile(temp, data, { mode: 0o600 });
	await fsp.rename(temp, file);
}

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR';

/** The files under DATA_DIR, each key a path below it. */
export class LocalFileStore implements FileStore {
	readonly kind = 'local';
	readonly root: string;

	constructor(root: string) {
		this.root = path.resolve(root);
	}

	/** The absolute path of a key (checked: never outside the root). */
	pathOf(key: string): string {
		assertValidKey(key);
		return path.join(this.root, ...key.split('/'));
	}

	async put(key: string, data: Buffer | string): Promise<void> {
		await writeFileAtomic(this.pathOf(key), data);
	}

	async get(key: string): Promise<Buffer | null> {
		return fsp.readFile(this.pathOf(key)).catch((error: unknown) => {
			if (missing(error) || (error as NodeJS.ErrnoException).code === 'EISDIR') return null;
			throw error;
		});
	}

	async stat(key: string): Promise<StoredFile | null> {
		const stat = await fsp.stat(this.pathOf(key)).catch((error: unknown) => {
			if (missing(error)) return null;
			throw error;
		});
		return stat?.isFile() ? { key, bytes: stat.size, modifiedAt: stat.mtime } : null;
	}

	async delete(key: string): Promise<void> {
		await fsp.rm(this.pathOf(key), { force: true });
	}

	async list(prefix: string): Promise<StoredFile[]> {
		const slash = prefix.lastIndexOf('/');
		const folder = slash < 0 ? '' : prefix.slice(0, slash);
		const files: StoredFile[] = [];
		await this.collect(folder, files);
		return files.filter((file) => file.key.startsWith(prefix)).sort((a, b) => a.key.localeCompare(b.key));
	}

	private async collect(folder: string, into: StoredFile[]): Promise<void> {
		const dir = folder === '' ? this.root : this.pathOf(folder);
		const entries: Dirent[] = await fsp.readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
			if (missing(error)) return [];
			throw error;
		});
		for (const entry of entries) {
			const key = folder === '' ? entry.name : `${folder}/${entry.name}`;
			if (entry.isDirectory()) await this.collect(key, into);
			else if (entry.isFile()) {
				const stat = await this.stat(key);
				if (stat) into.push(stat);
			}
		}
	}

	async deleteFolder(prefix: string): Promise<void> {
		await fsp.rm(this.pathOf(folderPrefix(prefix).slice(0, -1)), { recursive: true, force: true });
	}

	reference(key: string): string {
		return this.pathOf(key);
	}

	keyOf(reference: string): string | null {
		const relative = path.isAbsolute(reference) ? path.relative(this.root, reference) : reference;
		const key = relative.split(path.sep).join('/');
		return isValidKey(key) ? key : null;
	}
}
