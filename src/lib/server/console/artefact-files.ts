import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { FileStore } from '../files/file-store.ts';
import { LocalFileStore } from '../files/local-file-store.ts';

/**
 * Files the console may show: debug artefacts (`debug_sheets/<file>`), delivered stickers
 * (`sessions/<token>/stickers/<file>`) and uploaded outfit previews (`outfit-previews/<file>`). Selfies and anything else under DATA_DIR stay out of reach.
 * Paths are checked segment by segment and again after resolving symlinks.
 */
// A name part: never hidden (a leading dot) and never `..`. A leading '-' is allowed: session
// tokens are base64url, so one guest in 64 has a token that starts with it.
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/;
export const ARTEFACT_TYPES: Record<string, string> = {
	'.png': 'image/png',
	'.webp': 'image/webp',
	'.jpg': 'image/jpeg',
	'.jpeg': 'image/jpeg',
	'.json': 'application/json',
	'.webm': 'video/webm'
};

export function isAllowedArtefactPath(relative: string): boolean {
	const parts = relative.split('/');
	if (!parts.every((part) => SEGMENT.test(part) && !part.includes('..'))) return false;
	const shapeOk =
		(parts.length === 2 && (parts[0] === 'debug_sheets' || parts[0] === 'outfit-previews')) ||
		(parts.length === 4 && parts[0] === 'sessions' && parts[2] === 'stickers');
	return shapeOk && path.extname(relative).toLowerCase() in ARTEFACT_TYPES;
}

/** The absolute path of an allowed, existing regular file inside DATA_DIR, or null. */
export async function resolveArtefactFile(dataDir: string, relative: string): Promise<string | null> {
	if (!isAllowedArtefactPath(relative)) return null;
	try {
		const root = await fsp.realpath(dataDir);
		const real = await fsp.realpath(path.join(root, ...relative.split('/')));
		// The resolved file must itself be an allowed artefact: a symlink cannot lead to the database.
		if (
			!real.startsWith(root + path.sep) ||
			!isAllowedArtefactPath(path.relative(root, real).split(path.sep).join('/'))
		)
			return null;
		return (await fsp.stat(real)).isFile() ? real : null;
	} catch {
		return null;
	}
}

export interface ArtefactFile {
	name: string;
	url: string;
	kind: 'image' | 'json' | 'video';
	bytes: number;
	/** A sticker that moves: its clip (sticker_<n>.webm) beside the still PNG. */
	video?: string;
}

export function artefactUrl(relative: string): string {
	return `/api/console/files/${relative.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * An allowed artefact's bytes from the store, or null. On DATA_DIR the file is resolved first
 * (resolveArtefactFile), so a symlink under an allowed name never leads out of the folders.
 */
export async function readArtefact(store: FileStore, relative: string): Promise<Buffer | null> {
	if (!isAllowedArtefactPath(relative)) return null;
	if (store instanceof LocalFileStore) {
		const file = await resolveArtefactFile(store.root, relative);
		return file ? fsp.readFile(file).catch(() => null) : null;
	}
	return store.get(relative);
}

/** `debug_sheets/job<N>_*` files of one job, sorted by name (sheet attempts stay in order). */
export async function listJobArtefacts(store: FileStore, jobId: number): Promise<ArtefactFile[]> {
	return listFiles(store, `debug_sheets/job${jobId}_`);
}

/**
 * The delivered stickers of a session (`sticker_<n>.png`), in sticker order; a sticker that moves
 * carries its clip (`sticker_<n>.webm`) as `video`.
 */
export async function listStickers(store: FileStore, sessionToken: string): Promise<ArtefactFile[]> {
	if (!SEGMENT.test(sessionToken)) return [];
	const files = await listFiles(store, `sessions/${sessionToken}/stickers/`);
	const order = (name: string) => Number(/(\d+)/.exec(name)?.[1] ?? 0);
	const clips = new Map(files.filter((f) => f.kind === 'video').map((f) => [order(f.name), f.url]));
	return files
		.filter((f) => f.kind !== 'video')
		.map((f) => (clips.has(order(f.name)) ? { ...f, video: clips.get(order(f.name)) } : f))
		.sort((a, b) => order(a.name) - order(b.name));
}

async function listFiles(store: FileStore, prefix: string): Promise<ArtefactFile[]> {
	const stored = await store.list(prefix).catch(() => []);
	const files: ArtefactFile[] = [];
	for (const file of stored) {
		if (!isAllowedArtefactPath(file.key)) continue;
		const name = path.posix.basename(file.key);
		const ext = path.extname(name).toLowerCase();
		const kind = ext === '.json' ? 'json' : ext === '.webm' ? 'video' : 'image';
		// The version makes the page load a file again once it changes (a redrawn sticker keeps its name).
		files.push({
			name,
			url: `${artefactUrl(file.key)}?v=${Math.round(file.modifiedAt.getTime())}`,
			kind,
			bytes: file.bytes
		});
	}
	return files.sort((a, b) => a.name.localeCompare(b.name));
}

/** A small JSON artefact's content for the page (consistency, likeness, cut diagnosis). */
export async function readJsonArtefact(store: FileStore, name: string, maxBytes = 64_000): Promise<unknown> {
	const key = `debug_sheets/${name}`;
	if (!isAllowedArtefactPath(key)) return null;
	const stat = await store.stat(key);
	if (!stat) return null;
	if (stat.bytes > maxBytes) return { note: `too large to show here (${stat.bytes} bytes); open the file` };
	const bytes = await readArtefact(store, key);
	if (!bytes) return null;
	try {
		return JSON.parse(bytes.toString('utf8'));
	} catch {
		return { note: 'not valid JSON' };
	}
}
