import { randomUUID } from 'node:crypto';
import { promises as fsp, type Dirent } from 'node:fs';
import path from 'node:path';
import {
	assertValidKey,
	folderPrefix,
	isValidKey,
	type EmptyFolderRule,
	type FileStore,
	type StoredFile
} from './file-store.ts';

/** Writes to a temporary name and renames, so a crash never leaves half a file under the real name. */
export async function writeFileAtomic(file: string, data: Buffer | string): Promise<void> {
	// Folders of guest files are the service's own, like the files (mode 600).
	await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
	// Unique per write: two writers of one file (a job claimed again while a frozen slot still runs) never share a temp name.
	const temp = `${file}.${process.pid}.${randomUUID()}.tmp`;
	await fsp.writeFile(temp, data, { mode: 0o600 });
	await fsp.rename(temp, file);
}

const missing = (error: unknown) =>
	(error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR';

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

	async removeEmptyFolders(prefix: string, rule: EmptyFolderRule): Promise<number> {
		const root = folderPrefix(prefix).slice(0, -1);
		// Every folder above a just-deleted file: emptied now, so its fresh mtime must not keep it.
		const emptied = new Set(
			rule.emptied.flatMap((key) =>
				key
					.split('/')
					.slice(0, -1)
					.map((_, i, parts) => parts.slice(0, i + 1).join('/'))
			)
		);
		const removed = { count: 0 };
		await this.pruneBelow(root, { olderThan: rule.olderThan.getTime(), emptied }, removed);
		return removed.count;
	}

	/** Counts in `removed` the folders below `folder` that went; returns whether `folder` is empty now. */
	private async pruneBelow(
		folder: string,
		rule: { olderThan: number; emptied: Set<string> },
		removed: { count: number }
	): Promise<boolean> {
		const entries: Dirent[] | null = await fsp
			.readdir(this.pathOf(folder), { withFileTypes: true })
			.catch((error: unknown) => {
				if (missing(error)) return null;
				throw error;
			});
		if (entries === null) return false;
		let left = entries.length;
		for (const entry of entries) {
			if (!entry.isDirectory()) continue;
			const sub = `${folder}/${entry.name}`;
			const before = removed.count;
			const empty = await this.pruneBelow(sub, rule, removed);
			// A folder whose subfolder just went was emptied now too, whatever its fresh mtime says.
			if (empty && (await this.removeIfEmpty(sub, rule.emptied.has(sub) || removed.count > before, rule.olderThan))) {
				removed.count++;
				left--;
			}
		}
		return left === 0;
	}

	private async removeIfEmpty(folder: string, emptiedNow: boolean, olderThan: number): Promise<boolean> {
		const dir = this.pathOf(folder);
		try {
			if (!emptiedNow && (await fsp.lstat(dir)).mtimeMs > olderThan) return false;
			await fsp.rmdir(dir);
			return true;
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			if (code === 'ENOENT') return false; // removed by someone else meanwhile
			if (code === 'ENOTEMPTY' || code === 'EEXIST') return false; // a file arrived meanwhile
			throw error;
		}
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
