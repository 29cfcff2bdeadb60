import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { e2eDataDir, withE2eDb } from './console-operator.ts';

/**
 * What the console specs plant in the product's SQLite file and data folder, as another process
 * would: two guests with a job each, a delivered job's stickers, and the audit log read back. Each
 * spec seeds guests of its own (its own ids and tag), so the specs do not depend on each other's rows.
 * No provider calls (api_usage): the Live page's provider health counts every call, so a spec that
 * reads it plants its own.
 */
export interface AuditRow {
	actor: string;
	ip: string | null;
	details: string | null;
	job_id: number | null;
	telegram_user_id: number | null;
}

export const lastAudit = (action: string) =>
	withE2eDb(
		(db) =>
			db.prepare('SELECT * FROM audit_log WHERE action = ? ORDER BY id DESC LIMIT 1').get(action) as
				AuditRow | undefined
	);

export interface SeededGuests {
	/** Anna: consented, no pack yet, one failed job ("deadline passed", 3 attempts). */
	anna: number;
	/** Boris: a delivered pack, one done job. */
	boris: number;
	failedJob: number;
	doneJob: number;
	/** Boris's pack name (and its link is t.me/addstickers/<name>). */
	borisPack: string;
	/** The session tokens of Anna's and Boris's jobs. */
	annaToken: string;
	borisToken: string;
}

/** Anna and Boris under `ids`; `tag` names their usernames (`anna_<tag>`) and session tokens (`<tag>TokAnna1`). */
export function seedGuests(ids: { anna: number; boris: number }, tag: string): SeededGuests {
	const borisPack = `boris_${ids.boris}_1_by_sticker_kiosk_bot`;
	const annaToken = `${tag}TokAnna1`;
	const borisToken = `${tag}TokBoris1`;
	return withE2eDb((db) => {
		const now = new Date().toISOString();
		const user = db.prepare(
			'INSERT INTO users (telegram_user_id, first_name, username, consented_at, pack_name, pack_link, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)'
		);
		user.run(ids.anna, 'Anna', `anna_${tag}`, now, null, null, now);
		user.run(ids.boris, 'Boris', `boris_${tag}`, now, borisPack, `https://t.me/addstickers/${borisPack}`, now);
		const session = db.prepare(
			"INSERT INTO sessions (session_token, telegram_user_id, template_id, status, created_at, updated_at) VALUES (?, ?, 'suit', 'photo_taken', ?, ?)"
		);
		const job = db.prepare(
			"INSERT INTO jobs (telegram_user_id, session_token, photo_path, template_id, status, attempts, error, pack_name, link_sent_at, created_at, updated_at) VALUES (?, ?, 'gone.jpg', 'suit', ?, ?, ?, ?, ?, ?, ?)"
		);
		session.run(annaToken, ids.anna, now, now);
		const failedJob = Number(
			job.run(ids.anna, annaToken, 'failed', 3, 'deadline passed', null, null, now, now).lastInsertRowid
		);
		session.run(borisToken, ids.boris, now, now);
		const doneJob = Number(job.run(ids.boris, borisToken, 'done', 1, null, borisPack, now, now, now).lastInsertRowid);
		return { ...ids, failedJob, doneJob, borisPack, annaToken, borisToken };
	});
}

/** Twelve sticker files in a session folder, as a delivered job leaves them (the console shows them). */
export async function plantStickers(sessionToken: string): Promise<void> {
	const dir = path.join(e2eDataDir(), 'sessions', sessionToken, 'stickers');
	mkdirSync(dir, { recursive: true });
	for (let n = 1; n <= 12; n++) {
		const png = await sharp({
			create: { width: 512, height: 512, channels: 4, background: { r: 20 * n, g: 120, b: 200, alpha: 1 } }
		})
			.png()
			.toBuffer();
		writeFileSync(path.join(dir, `sticker_${n}.png`), png);
	}
}
