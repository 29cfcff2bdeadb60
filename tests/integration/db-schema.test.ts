import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase, readConnectionPragmas } from '../../src/lib/server/db/client.ts';
import { runTs } from '../helpers/node-process.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

/** Every table and column of the product's data model, named as the product names them. */
const SEED_COLUMNS: Record<string, string[]> = {
	users: [
		'telegram_user_id',
		'consented_at',
		'pack_link',
		'pack_name',
		'pack_completed_at',
		'extra_packs_allowed',
		'first_name',
		'last_name',
		'username',
		'created_at'
	],
	sessions: [
		'session_token',
		'telegram_user_id',
		'template_id',
		'status',
		'notice',
		'closed_reason',
		'created_at',
		'updated_at'
	],
	jobs: [
		'job_id',
		'telegram_user_id',
		'session_token',
		'photo_path',
		'template_id',
		'provider_used',
		'status',
		'attempts',
		'error',
		'pack_name',
		'pack_created_at',
		'link_sent_at',
		'delay_notice_sent_at',
		'appearance_json',
		'render_mode',
		'art_style',
		'created_at',
		'updated_at'
	],
	api_usage: [
		'id',
		'job_id',
		'ts',
		'kind',
		'provider',
		'model',
		'prompt_tokens',
		'output_tokens',
		'images',
		'est_cost_usd',
		'ok',
		'http_status',
		'error',
		'stage',
		'resolution',
		'image_tokens',
		'thoughts_tokens'
	],
	audit_log: ['id', 'ts', 'actor', 'ip', 'action', 'telegram_user_id', 'job_id', 'details'],
	settings: ['key', 'value', 'updated_at'],
	leads: [
		'id',
		'request_id',
		'created_at',
		'submitted_at',
		'name',
		'telegram',
		'phone',
		'event_date',
		'guests',
		'comment',
		'locale',
		'utm',
		'utm_source',
		'utm_medium',
		'utm_campaign',
		'ip_hash',
		'status',
		'status_by',
		'status_by_name',
		'status_at',
		'chat_id',
		'message_id',
		'published_at',
		'publish_attempts',
		'next_publish_at',
		'publish_error',
		'reminded_at',
		'erased_at'
	],
	lead_status_history: ['id', 'lead_id', 'status', 'by_user_id', 'by_name', 'at'],
	lead_repeats: [
		'id',
		'lead_id',
		'request_id',
		'at',
		'telegram',
		'phone',
		'event_date',
		'guests',
		'comment',
		'locale',
		'utm_source',
		'ip_hash',
		'notified_at',
		'notify_attempts',
		'next_notify_at',
		'notify_error',
		'ping_message_id'
	]
};

const SEED_INDEXES: Record<string, [string, string[]]> = {
	idx_jobs_status: ['jobs', ['status']],
	idx_jobs_user: ['jobs', ['telegram_user_id']],
	idx_api_usage_ts: ['api_usage', ['ts']],
	idx_api_usage_job: ['api_usage', ['job_id']],
	idx_audit_ts: ['audit_log', ['ts']],
	idx_leads_status: ['leads', ['status']],
	idx_leads_outbox: ['leads', ['published_at', 'next_publish_at']],
	idx_leads_created: ['leads', ['created_at']],
	idx_lead_history_lead: ['lead_status_history', ['lead_id']],
	idx_lead_repeats_lead: ['lead_repeats', ['lead_id']],
	idx_lead_repeats_outbox: ['lead_repeats', ['notified_at', 'next_notify_at']]
};

describe('a fresh database from `npm run db:migrate`', () => {
	const tempDir = useTempDir();

	async function migrateFresh(): Promise<string> {
		const dbPath = path.join(tempDir(), 'app.db');
		const result = await runTs('src/lib/server/db/migrate-cli.ts', { env: { DB_PATH: dbPath } });
		expect(result.stderr).toBe('');
		expect(result.code).toBe(0);
		expect(result.stdout).toContain('applied 20261129115954_init');
		return dbPath;
	}

	it('has every product table and column, every product index by name, the unique keys and the two foreign keys', async () => {
		const conn = new Database(await migrateFresh(), { readonly: true });
		for (const [table, columns] of Object.entries(SEED_COLUMNS)) {
			const actual = conn.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table);
			expect(actual, table).toEqual(columns);
		}
		for (const [index, [table, columns]] of Object.entries(SEED_INDEXES)) {
			const actual = conn.prepare(`SELECT name FROM pragma_index_info(?) ORDER BY seqno`).pluck().all(index);
			expect(actual, index).toEqual(columns);
			expect(conn.prepare(`SELECT tbl_name FROM sqlite_master WHERE type='index' AND name=?`).pluck().get(index)).toBe(
				table
			);
		}
		for (const table of ['leads', 'lead_repeats']) {
			const unique = conn
				.prepare(`SELECT name FROM pragma_index_list(?) WHERE "unique" = 1 AND origin = 'c'`)
				.pluck()
				.all(table) as string[];
			const cols = unique.flatMap((name) => conn.prepare(`SELECT name FROM pragma_index_info(?)`).pluck().all(name));
			expect(cols, `${table} unique`).toContain('request_id');
		}
		for (const table of ['lead_status_history', 'lead_repeats']) {
			const fks = conn.prepare(`SELECT "from", "table", "to" FROM pragma_foreign_key_list(?)`).all(table);
			expect(fks).toEqual([{ from: 'lead_id', table: 'leads', to: 'id' }]);
		}
		expect(conn.pragma('journal_mode', { simple: true })).toBe('wal');
		conn.close();
	});

	it('gives each process connection WAL, enforced foreign keys, synchronous=NORMAL and busy_timeout=5000', async () => {
		const db = openDatabase(await migrateFresh());
		expect(await readConnectionPragmas(db)).toEqual({
			journalMode: 'wal',
			foreignKeys: 1,
			busyTimeout: 5000,
			synchronous: 1
		});
		// Enforcement is real: a history row for a lead that does not exist is refused.
		await expect(
			db.leadStatusHistory.create({
				data: { leadId: 999, status: 'new', byUserId: 1n, at: '2026-01-01T00:00:00.000Z' }
			})
		).rejects.toThrow(/foreign key/i);
		await db.$disconnect();
	});

	it('keeps timestamps as ISO 8601 text on disk', async () => {
		const dbPath = await migrateFresh();
		const db = openDatabase(dbPath);
		await db.user.create({ data: { telegramUserId: 5_000_000_001n, createdAt: '2026-11-29T10:00:00.000Z' } });
		await db.$disconnect();
		const conn = new Database(dbPath, { readonly: true });
		expect(conn.prepare(`SELECT typeof(created_at) t, created_at, telegram_user_id FROM users`).get()).toEqual({
			t: 'text',
			created_at: '2026-11-29T10:00:00.000Z',
			telegram_user_id: 5_000_000_001
		});
		conn.close();
	});
});
