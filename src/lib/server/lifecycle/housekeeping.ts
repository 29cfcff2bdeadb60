import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/client.ts';
import { deleteStillUnlinkedSessions, listUnlinkedSessionTokens } from '../guests/sessions.repository.ts';
import type { Logger } from '../log/logger.ts';
import { DAY, HOUR, type Clock } from '../time/clock.ts';
import { prismaRunner, tableExists } from './sql-runner.ts';

/** A session nobody linked to a guest (the QR was never scanned) is kept this long: a day. */
export const UNLINKED_SESSION_MAX_AGE_MS = 24 * HOUR;
/** The backup window: daily backups are kept 14 days, and so are the app.db.bak-* copies. */
export const BACKUP_WINDOW_DAYS = 14;

/** Deletes sessions that never got a guest, 24 h after they were started. */
export async function deleteUnlinkedSessions(db: Db, clock: Clock): Promise<number> {
	const olderThan = new Date(clock.now().getTime() - UNLINKED_SESSION_MAX_AGE_MS).toISOString();
	const tokens = await listUnlinkedSessionTokens(db, olderThan);
	if (tokens.length === 0) return 0;
	return db.$transaction(async (tx) => {
		// kiosk_sessions (guest flow) names the kiosk of each session; it goes with the session.
		const sql = prismaRunner(tx);
		if (await tableExists(sql, 'kiosk_sessions')) {
			await sql.run(`DELETE FROM kiosk_sessions WHERE session_token IN (${tokens.map(() => '?').join(',')})`, tokens);
		}
		return deleteStillUnlinkedSessions(tx, tokens);
	});
}

const BAK_FILE = /\.bak-(\d{8})-(\d{6})/;

/** When an `app.db.bak-<YYYYMMDD-HHMMSS>[-label]` copy was taken: from its name, else its mtime. */
export function bakFileTakenAt(name: string, mtimeMs: number): number {
	const match = BAK_FILE.exec(name);
	if (!match?.[1] || !match[2]) return mtimeMs;
	const [d, t] = [match[1], match[2]];
	const iso = `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}T${t.slice(0, 2)}:${t.slice(2, 4)}:${t.slice(4, 6)}Z`;
	const at = Date.parse(iso);
	return Number.isNaN(at) ? mtimeMs : at;
}

/**
 * `app.db.bak-*` copies (before a migration, a reset, a restore) hold everything the database
 * holds; they go once older than the backup window, like the daily backups.
 */
export async function removeOldBakFiles(dbPath: string, clock: Clock, logger: Logger): Promise<number> {
	const dir = path.dirname(dbPath);
	const prefix = `${path.basename(dbPath)}.bak-`;
	const olderThan = clock.now().getTime() - BACKUP_WINDOW_DAYS * DAY;
	let removed = 0;
	for (const name of await fsp.readdir(dir).catch(() => [] as string[])) {
		if (!name.startsWith(prefix)) continue;
		const file = path.join(dir, name);
		try {
			const stat = await fsp.stat(file);
			if (bakFileTakenAt(name, stat.mtimeMs) >= olderThan) continue;
			await fsp.rm(file, { force: true });
			removed++;
		} catch (error) {
			logger.warn({ file: name, err: error }, 'could not remove an old database copy; will retry next pass');
		}
	}
	return removed;
}
