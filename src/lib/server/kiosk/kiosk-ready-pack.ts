import type { FileStore, StoredFile } from '../files/file-store.ts';
import type { Db } from '../db/client.ts';
import { HOUR, type Clock } from '../time/clock.ts';
import type { ReadySticker } from '../../schemas/kiosk.ts';
import { isSessionOfKiosk, latestSessionOfKiosk } from './kiosk-sessions.repository.ts';

/**
 * The "your pack is ready — check Telegram" moment: the kiosk that took a guest's photo shows
 * that guest's stickers once the pack link is sent. These are drawings of a guest's face, so they
 * are served far more narrowly than anything else of the kiosk's:
 * - only to the kiosk that started the session, and only while it is that kiosk's latest session
 *   (the next guest's Start ends the moment for good, whatever the page does);
 * - only once the link is sent (the job is `done`) and for READY_WINDOW_MS after it: long enough
 *   for the ready screen to load them, and the page shows them for 15 s;
 * - never past the file TTL (PHOTO_TTL_HOURS; a file older than that is not served even if the sweep has not reached it yet).
 * A guest's /forget deletes the job and the files, so nothing is found then either.
 */
export const READY_WINDOW_MS = 60_000;
/** `sticker_<n>.png` (drawn) or `sticker_<n>.webm` (animated), n = 1…12. */
const STICKER_FILE = /^sticker_([1-9]|1[0-2])\.(png|webm)$/;
const CONTENT_TYPES = { png: 'image/png', webm: 'video/webm' } as const;

export interface ReadyPackDeps {
	db: Db;
	clock: Clock;
	files: FileStore;
	/** PHOTO_TTL_HOURS. */
	ttlHours: number;
}

/** The session's delivered stickers in pack order (an animated one in place of its still), or null when not to be shown. */
export async function listReadyStickers(
	deps: ReadyPackDeps,
	kioskId: number,
	token: string
): Promise<ReadySticker[] | null> {
	if (!(await mayShowPack(deps, kioskId, token))) return null;
	const byNumber = new Map<number, { file: StoredFile; ext: 'png' | 'webm' }>();
	for (const file of await deps.files.list(`sessions/${token}/stickers/`)) {
		const match = STICKER_FILE.exec(file.key.slice(file.key.lastIndexOf('/') + 1));
		if (!match || !fresh(deps, file)) continue;
		const number = Number(match[1]);
		const ext = match[2] as 'png' | 'webm';
		// The pack holds the animated sticker where there is one: show that one.
		if (!byNumber.has(number) || ext === 'webm') byNumber.set(number, { file, ext });
	}
	return [...byNumber.entries()]
		.sort(([a], [b]) => a - b)
		.map(([number, { ext }]) => ({
			number,
			kind: ext === 'webm' ? 'video' : 'image',
			url: `/api/kiosk/sessions/${token}/stickers/sticker_${number}.${ext}`
		}));
}

/** One sticker file of the session, under the same rule; null when not to be shown (or no such file). */
export async function readReadySticker(
	deps: ReadyPackDeps,
	kioskId: number,
	token: string,
	name: string
): Promise<{ bytes: Buffer; contentType: string } | null> {
	const match = STICKER_FILE.exec(name);
	if (!match || !(await mayShowPack(deps, kioskId, token))) return null;
	const key = `sessions/${token}/stickers/${name}`;
	const stat = await deps.files.stat(key);
	if (!stat || !fresh(deps, stat)) return null;
	const bytes = await deps.files.get(key);
	return bytes ? { bytes, contentType: CONTENT_TYPES[match[2] as 'png' | 'webm'] } : null;
}

async function mayShowPack(deps: ReadyPackDeps, kioskId: number, token: string): Promise<boolean> {
	if (!(await isSessionOfKiosk(deps.db, kioskId, token))) return false;
	if ((await latestSessionOfKiosk(deps.db, kioskId)) !== token) return false;
	const job = await deps.db.job.findFirst({
		where: { sessionToken: token },
		orderBy: { jobId: 'desc' },
		select: { status: true, linkSentAt: true }
	});
	if (job?.status !== 'done' || !job.linkSentAt) return false;
	const sinceLink = deps.clock.now().getTime() - Date.parse(job.linkSentAt);
	return sinceLink >= 0 && sinceLink <= READY_WINDOW_MS;
}

function fresh(deps: ReadyPackDeps, file: StoredFile): boolean {
	return deps.clock.now().getTime() - file.modifiedAt.getTime() < deps.ttlHours * HOUR;
}
