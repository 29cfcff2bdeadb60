import { promises as fsp } from 'node:fs';
import path from 'node:path';

/**
 * Files the console may show: debug artefacts (`debug_sheets/<file>`), delivered stickers
 * (`sessions/<token>/stickers/<file>`) and uploaded outfit previews (`outfit-previews/<file>`). Selfies and anything else under DATA_DIR stay out of reach.
 * Paths are checked segment by segment and again after resolving symlinks.
 */
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
export const ARTEFACT_TYPES: Record<string, string> = {
	'.png': 'image/png',
	'.webp': 'image/webp',
	'.jpg': 'image/jpeg',
	'.jpeg': 'image/jpeg',
	'.json': 'application/json'
};

export function isAllowedArtefactPath(relative: string): boolean {
	const parts = relative.split('/');
	if (!parts.every((part) => SEGMENT.test(part) && !part.includes('..'))) return false;
	const shapeOk =
		(parts.length === 2 && (parts[0] === 'debug_sheets' || parts[0] === 'outfit-previews')) || (parts.length === 4 && parts[0] === 'sessions' && parts[2] === 'stickers');
	return shapeOk && path.extname(relative).toLowerCase() in ARTEFACT_TYPES;
}

/** The absolute path of an allowed, existing regular file inside DATA_DIR, or null. */
export async function resolveArtefactFile(dataDir: string, relative: string): Promise<string | null> {
	if (!isAllowedArtefactPath(relative)) return null;
	try {
		const root = await fsp.realpath(dataDir);
		const real = await fsp.realpath(path.join(root, ...relative.split('/')));
		// The resolved file must itself be an allowed artefact: a symlink cannot lead to the database.
		if (!real.startsWith(root + path.sep) || !isAllowedArtefactPath(path.relative(root, real).split(path.sep).join('/'))) return null;
		return (await fsp.stat(real)).isFile() ? real : null;
	} catch {
		return null;
	}
}

export interface ArtefactFile {
	name: string;
	url: string;
	kind: 'image' | 'json';
	bytes: number;
}

export function artefactUrl(relative: string): string {
	return `/api/console/files/${relative.split('/').map(encodeURIComponent).join('/')}`;
}

/** `debug_sheets/job<N>_*` files of one job, sorted by name (sheet attempts stay in order). */
export async function listJobArtefacts(dataDir: string, jobId: number): Promise<ArtefactFile[]> {
	const prefix = `job${jobId}_`;
	return listFiles(path.join(dataDir, 'debug_sheets'), 'debug_sheets', (name) => name.startsWith(prefix));
}

/** The delivered stickers of a session (`sticker_<n>.png`), in sticker order. */
export async function listStickers(dataDir: string, sessionToken: string): Promise<ArtefactFile[]> {
	if (!SEGMENT.test(sessionToken)) return [];
	const files = await listFiles(path.join(dataDir, 'sessions', sessionToken, 'stickers'), `sessions/${sessionToken}/stickers`, () => true);
	const order = (name: string) => Number(/(\d+)/.exec(name)?.[1] ?? 0);
	return files.sort((a, b) => order(a.name) - order(b.name));
}

async function listFiles(dir: string, relativeDir: string, keep: (name: string) => boolean): Promise<ArtefactFile[]> {
	const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
	const files: ArtefactFile[] = [];
	for (const entry of entries) {
		const relative = `${relativeDir}/${entry.name}`;
		if (!entry.isFile() || !keep(entry.name) || !isAllowedArtefactPath(relative)) continue;
		const stat = await fsp.stat(path.join(dir, entry.name)).catch(() => null);
		const kind = path.extname(entry.name).toLowerCase() === '.json' ? 'json' : 'image';
		// The version makes the page load a file again once it changes (a redrawn sticker keeps its name).
		files.push({ name: entry.name, url: `${artefactUrl(relative)}?v=${Math.round(stat?.mtimeMs ?? 0)}`, kind, bytes: stat?.size ?? 0 });
	}
	return files.sort((a, b) => a.name.localeCompare(b.name));
}

/** A small JSON artefact's content for the page (consistency, likeness, cut diagnosis). */
export async function readJsonArtefact(dataDir: string, name: string, maxBytes = 64_000): Promise<unknown> {
	const file = await resolveArtefactFile(dataDir, `debug_sheets/${name}`);
	if (!file) return null;
	const stat = await fsp.stat(file);
	if (stat.size > maxBytes) return { note: `too large to show here (${stat.size} bytes); open the file` };
	try {
		return JSON.parse(await fsp.readFile(file, 'utf8'));
	} catch {
		return { note: 'not valid JSON' };
	}
}
