import { ACTIVE_JOB_STATUSES } from '../../schemas/job-status.ts';
import { deleteGuestSessions } from '../guests/sessions.repository.ts';
import { deleteGuestJobs, sqlList } from '../jobs/job.repository.ts';
import { fingerprintPackName } from './pseudonym.ts';
import { tableExists, toBigInt, type SqlRunner } from './sql-runner.ts';

// The guest's rows, as the erasure rules see them. Raw SQL on purpose: the same statements run on
// the live database (Prisma) and on a restored backup file (better-sqlite3), see sql-runner.ts.

export interface GuestFootprint {
	sessionTokens: string[];
	jobIds: number[];
	packNames: string[];
}

/** Sticker-set names end in `_by_<bot username>` (Telegram's rule), wherever they are quoted. */
const PACK_NAME = /[A-Za-z][A-Za-z0-9_]*_by_[A-Za-z0-9_]+/g;

export async function readGuestFootprint(sql: SqlRunner, telegramUserId: bigint): Promise<GuestFootprint> {
	const id = telegramUserId;
	const tokens = await sql.all<{ t: string }>(
		`SELECT session_token AS t FROM sessions WHERE telegram_user_id = ? UNION SELECT session_token FROM jobs WHERE telegram_user_id = ?`,
		[id, id]
	);
	const jobs = await sql.all<{ j: number }>(`SELECT job_id AS j FROM jobs WHERE telegram_user_id = ?`, [id]);
	const names = await sql.all<{ n: string | null }>(
		`SELECT pack_name AS n FROM users WHERE telegram_user_id = ? UNION SELECT pack_name FROM jobs WHERE telegram_user_id = ?`,
		[id, id]
	);
	const audit = await sql.all<{ d: string | null }>(`SELECT details AS d FROM audit_log WHERE telegram_user_id = ?`, [
		id
	]);
	const packNames = new Set(names.map((r) => r.n).filter((n): n is string => !!n));
	for (const row of audit) for (const name of extractPackNames(row.d ?? '')) packNames.add(name);
	return { sessionTokens: tokens.map((r) => r.t), jobIds: jobs.map((r) => Number(r.j)), packNames: [...packNames] };
}

export function extractPackNames(text: string): string[] {
	return [...new Set(text.match(PACK_NAME) ?? [])];
}

/**
 * Whether we hold a row about this person outside sessions and jobs: their users row (they pressed
 * /start at least once), or the choices an operator's reset keeps (news opt-in, bot-blocked mark).
 */
export async function isKnownGuest(sql: SqlRunner, telegramUserId: bigint): Promise<boolean> {
	const id = telegramUserId;
	const rows = await sql.all(
		`SELECT 1 AS x FROM users WHERE telegram_user_id = ? UNION ALL SELECT 1 FROM news_opt_ins WHERE telegram_user_id = ? UNION ALL SELECT 1 FROM guest_bot_blocks WHERE telegram_user_id = ?`,
		[id, id, id]
	);
	return rows.length > 0;
}

export async function hasActiveJob(sql: SqlRunner, telegramUserId: bigint): Promise<boolean> {
	const rows = await sql.all(
		`SELECT 1 AS x FROM jobs WHERE telegram_user_id = ? AND status IN ${sqlList(ACTIVE_JOB_STATUSES)} LIMIT 1`,
		[telegramUserId]
	);
	return rows.length > 0;
}

/** Rows other features keep per job (bot messages, the guest notices outbox, live progress with the guest's chat id, leases, sticker redraws, the outfit snapshot). */
const PER_JOB_TABLES = [
	'job_messages',
	'guest_notices',
	'job_progress',
	'job_leases',
	'sticker_redraws',
	'job_snapshots'
] as const;

/** Broadcast rows that name the guest: their place in each broadcast's outbox. */
const PER_GUEST_BROADCAST_TABLES = ['broadcast_recipients'] as const;

/**
 * The guest's own choices, which an operator's reset keeps (the person did not change their mind):
 * their news opt-in or opt-out, and the mark that they blocked the bot. broadcast_opt_outs is where
 * opt-outs were before news_opt_ins (a restored old backup file may still have it).
 */
const GUEST_CHOICE_TABLES = ['news_opt_ins', 'broadcast_opt_outs', 'guest_bot_blocks'] as const;

/**
 * Deletes everything that names the guest: their jobs (and the rows kept per job), their
 * sessions (and which kiosk started them), their language, their broadcast rows, their users row
 * and — unless `keepChoices` (an operator's reset) — their news opt-in and bot-blocked mark.
 * api_usage stays: spend must survive resets (it is what the provider bills) and it names no guest.
 */
export async function deleteGuestRows(
	sql: SqlRunner,
	telegramUserId: bigint,
	footprint: GuestFootprint,
	options: { keepChoices?: boolean } = {}
): Promise<Record<string, number>> {
	const id = telegramUserId;
	const deleted: Record<string, number> = {};
	const inList = (n: number) => Array.from({ length: n }, () => '?').join(',');
	for (const table of PER_JOB_TABLES) {
		if (footprint.jobIds.length === 0 || !(await tableExists(sql, table))) continue;
		deleted[table] = await sql.run(
			`DELETE FROM ${table} WHERE job_id IN (${inList(footprint.jobIds.length)})`,
			footprint.jobIds
		);
	}
	if (footprint.sessionTokens.length > 0 && (await tableExists(sql, 'kiosk_sessions'))) {
		deleted.kiosk_sessions = await sql.run(
			`DELETE FROM kiosk_sessions WHERE session_token IN (${inList(footprint.sessionTokens.length)})`,
			footprint.sessionTokens
		);
	}
	deleted.jobs = await deleteGuestJobs(sql, id);
	deleted.sessions = await deleteGuestSessions(sql, id);
	if (await tableExists(sql, 'guest_languages'))
		deleted.guest_languages = await sql.run(`DELETE FROM guest_languages WHERE telegram_user_id = ?`, [id]);
	if (await tableExists(sql, 'bot_messages'))
		deleted.bot_messages = await sql.run(`DELETE FROM bot_messages WHERE telegram_user_id = ?`, [id]);
	const perGuest = options.keepChoices
		? PER_GUEST_BROADCAST_TABLES
		: [...PER_GUEST_BROADCAST_TABLES, ...GUEST_CHOICE_TABLES];
	for (const table of perGuest) {
		if (await tableExists(sql, table))
			deleted[table] = await sql.run(`DELETE FROM ${table} WHERE telegram_user_id = ?`, [id]);
	}
	deleted.users = await sql.run(`DELETE FROM users WHERE telegram_user_id = ?`, [id]);
	return deleted;
}

/**
 * Audit entries keep what was done, not to whom: telegram_user_id becomes NULL and every mention of
 * the id in details — including inside pack names and links, which embed it — becomes the
 * pseudonym. Only whole numbers are replaced (the id is not a part of a longer number).
 */
export async function pseudonymiseGuestAudit(
	sql: SqlRunner,
	telegramUserId: bigint,
	pseudonym: string
): Promise<number> {
	const idText = telegramUserId.toString();
	// LIKE is the substring test both engines have; the id is digits, so no character of it is a wildcard.
	const rows = await sql.all<{ id: number; u: unknown; d: string | null }>(
		`SELECT id, telegram_user_id AS u, details AS d FROM audit_log WHERE telegram_user_id = ? OR details LIKE '%' || ? || '%'`,
		[telegramUserId, idText]
	);
	const mention = new RegExp(`(?<!\\d)${idText}(?!\\d)`, 'g');
	let changed = 0;
	for (const row of rows) {
		const details = row.d === null ? null : row.d.replace(mention, pseudonym);
		const aboutGuest = row.u !== null && toBigInt(row.u) === telegramUserId;
		// A row about someone else that merely quotes the id keeps its own telegram_user_id.
		if (aboutGuest)
			changed += await sql.run(`UPDATE audit_log SET telegram_user_id = NULL, details = ? WHERE id = ?`, [
				details,
				Number(row.id)
			]);
		else if (details !== row.d)
			changed += await sql.run(`UPDATE audit_log SET details = ? WHERE id = ?`, [details, Number(row.id)]);
	}
	return changed;
}

export interface ErasureEntry {
	kind: 'guest' | 'lead';
	subject: string;
	reason: string;
	erasedAt: string;
	packNameHashes: string[] | null;
}

export async function recordErasure(sql: SqlRunner, entry: ErasureEntry): Promise<void> {
	await sql.run(`INSERT INTO erasures (kind, subject, reason, erased_at, pack_name_hashes) VALUES (?, ?, ?, ?, ?)`, [
		entry.kind,
		entry.subject,
		entry.reason,
		entry.erasedAt,
		entry.packNameHashes ? JSON.stringify(entry.packNameHashes) : null
	]);
}

export function fingerprintPackNames(key: Buffer, names: string[]): string[] {
	return [...new Set(names.map((name) => fingerprintPackName(key, name)))];
}

/**
 * Every Telegram id the guest tables name (users, sessions/jobs rows left without one, and the
 * choices an operator's reset keeps — in a file older than those tables, they are left out).
 */
export async function listGuestIds(sql: SqlRunner): Promise<bigint[]> {
	const kept = [];
	for (const table of ['news_opt_ins', 'guest_bot_blocks'])
		if (await tableExists(sql, table)) kept.push(` UNION SELECT telegram_user_id FROM ${table}`);
	const rows = await sql.all<{ id: unknown }>(
		`SELECT telegram_user_id AS id FROM users UNION SELECT telegram_user_id FROM sessions WHERE telegram_user_id IS NOT NULL UNION SELECT telegram_user_id FROM jobs${kept.join('')}`
	);
	return rows.map((r) => toBigInt(r.id));
}
