import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { listBackups } from '../../src/lib/server/backup/backup-files.ts';
import { createBackup } from '../../src/lib/server/backup/create-backup.ts';
import { restoreBackup, RestoreError } from '../../src/lib/server/backup/restore.ts';
import type { Db } from '../../src/lib/server/db/client.ts';
import { countRows } from '../../src/lib/server/db/migrations/schema-shape.ts';
import { eraseGuest } from '../../src/lib/server/lifecycle/guest-erasure.ts';
import { loadPseudonymKey, pseudonymForGuest } from '../../src/lib/server/lifecycle/pseudonym.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { DAY, FakeClock, HOUR } from '../../src/lib/server/time/clock.ts';
import { startTs } from '../helpers/node-process.ts';
import { createTestDb } from '../helpers/test-db.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { insertGuest } from './lifecycle-fixtures.ts';
import { localFileStore } from '../helpers/file-store.ts';

const T0 = '2027-01-10T03:30:00.000Z';
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** Opens a backup's database (gunzipped next to it) read-only. */
function openBackup(file: string): Database.Database {
	const plain = `${file}.check.db`;
	writeFileSync(plain, gunzipSync(readFileSync(file)));
	return new Database(plain, { readonly: true });
}

async function insertLead(db: Db, id: number, at: string): Promise<void> {
	await db.lead.create({
		data: {
			id,
			requestId: `req-${id}`,
			createdAt: at,
			name: `Organiser ${id}`,
			telegram: `@org${id}`,
			phone: '+998901234567',
			comment: 'call me',
			ipHash: 'ab'.repeat(16)
		}
	});
	await db.leadRepeat.create({
		data: { leadId: id, requestId: `rep-${id}`, at, phone: '+998900000000', comment: 'again' }
	});
}

describe('backups', () => {
	const tempDir = useTempDir('kiosk-backup-');

	it('takes a consistent snapshot while another OS process writes: integrity ok, gzip, mode 600 in a 700 directory', async () => {
		const dir = tempDir();
		const { db, dbPath } = await createTestDb(dir);
		await db.setting.create({ data: { key: 'counter', value: '0', updatedAt: T0 } });
		await db.$disconnect();
		const writer = startTs('tests/helpers/write-load.ts', { args: [dbPath, '800', 'writer'] });
		// Start the backup only once the writer is really writing.
		const probe = new Database(dbPath, { readonly: true });
		while (Number(probe.prepare(`SELECT count(*) FROM audit_log`).pluck().get()) < 50)
			await new Promise((r) => setTimeout(r, 20));
		const backupDir = path.join(dir, 'backups');
		const result = await createBackup({ dbPath, backupDir, clock: new FakeClock(T0), logger: silentLogger });
		const duringBackup = Number(probe.prepare(`SELECT count(*) FROM audit_log`).pluck().get());
		probe.close();
		const finished = await writer.finished;

		expect(finished.code).toBe(0);
		expect(JSON.parse(finished.stdout.trim())).toMatchObject({ busy: 0, otherErrors: 0 });
		expect(duringBackup).toBeLessThan(800); // the writer was still going when the snapshot was taken
		expect(path.basename(result.file)).toBe('app-20270110-033000.db.gz');
		expect(statSync(result.file).mode & 0o777).toBe(0o600);
		expect(statSync(backupDir).mode & 0o777).toBe(0o700);
		const snapshot = openBackup(result.file);
		expect(snapshot.prepare('PRAGMA integrity_check').pluck().get()).toBe('ok');
		const rows = Number(snapshot.prepare(`SELECT count(*) FROM audit_log`).pluck().get());
		expect(rows).toBeGreaterThanOrEqual(50);
		// Consistent: the counter and the audit rows were written in the same transactions.
		expect(Number(snapshot.prepare(`SELECT value FROM settings WHERE key = 'counter'`).pluck().get())).toBe(rows);
		expect(snapshot.prepare(`SELECT value FROM settings WHERE key = 'backup_taken_at'`).pluck().get()).toBe(T0);
		snapshot.close();
		const live = new Database(dbPath, { readonly: true });
		expect(live.prepare(`SELECT count(*) FROM settings WHERE key = 'backup_taken_at'`).pluck().get()).toBe(0);
		live.close();
	});

	it('keeps the newest 14', async () => {
		const dir = tempDir();
		const { db, dbPath } = await createTestDb(dir);
		await db.$disconnect();
		const clock = new FakeClock(T0);
		const backupDir = path.join(dir, 'backups');
		for (let day = 0; day < 16; day++) {
			await createBackup({ dbPath, backupDir, clock, logger: silentLogger });
			clock.advance(DAY);
		}
		const names = listBackups(backupDir).map((b) => b.name);
		expect(names).toHaveLength(14);
		expect(names[0]).toBe('app-20270125-033000.db.gz');
		expect(names.at(-1)).toBe('app-20270112-033000.db.gz');
	});
});

describe('restore', () => {
	const tempDir = useTempDir('kiosk-restore-');

	async function drillSetup() {
		const dataDir = tempDir();
		const { db, dbPath } = await createTestDb(dataDir);
		const clock = new FakeClock(T0);
		const key = loadPseudonymKey(dataDir);
		await db.auditLog.create({
			data: {
				ts: T0,
				actor: 'ops',
				action: 'reset_user',
				telegramUserId: 6001n,
				details: '{"packNames":["p6001_1_by_sticker_kiosk_bot"]}'
			}
		});
		for (let i = 1; i <= 5; i++)
			await insertGuest(db, { id: BigInt(7000 + i), at: T0, packName: `u${7000 + i}_1_by_sticker_kiosk_bot` });
		for (let i = 1; i <= 3; i++) await insertLead(db, i, T0);
		const backup = await createBackup({
			dbPath,
			backupDir: path.join(dataDir, 'backups'),
			clock,
			logger: silentLogger
		});
		const snapshot = openBackup(backup.file);
		const counts = Object.fromEntries(countRows(snapshot));
		snapshot.close();
		return { dataDir, db, dbPath, clock, key, backup, counts };
	}

	it('a restore drill brings back the row counts of the backup and keeps the current database aside', async () => {
		const { dataDir, db, dbPath, clock, key, backup, counts } = await drillSetup();
		await insertGuest(db, { id: 9999n, at: T0 }); // written after the backup: not in it
		await db.$disconnect();
		clock.advance(HOUR);
		const result = await restoreBackup({ backupFile: backup.file, dbPath, dataDir, clock, pseudonymKey: key });
		expect(result.backupTakenAt).toBe(T0);
		for (const table of ['users', 'sessions', 'jobs', 'api_usage', 'leads', 'lead_repeats', 'audit_log'])
			expect(result.counts[table]).toBe(counts[table]);
		expect(path.basename(result.keptAside!)).toBe('app.db.bak-20270110-043000-before-restore');
		const aside = new Database(result.keptAside!, { readonly: true });
		expect(aside.prepare(`SELECT count(*) FROM users WHERE telegram_user_id = 9999`).pluck().get()).toBe(1);
		aside.close();
		const live = new Database(dbPath, { readonly: true });
		expect(live.prepare('PRAGMA integrity_check').pluck().get()).toBe('ok');
		expect(
			JSON.parse(live.prepare(`SELECT value FROM settings WHERE key = 'last_restore'`).pluck().get() as string)
		).toMatchObject({ from: path.basename(backup.file), backupTakenAt: T0 });
		live.close();
	});

	it('an erasure made after the backup survives the restore: /forget, a console reset, a lead erasure', async () => {
		const { dataDir, db, dbPath, clock, key, backup } = await drillSetup();
		clock.advance(HOUR);
		await eraseGuest({ db, clock, pseudonymKey: key, fileStore: localFileStore(dataDir) }, 7001n, 'forget');
		// The console's reset: rows deleted, an audit entry naming the guest (not in our ledger).
		await db.job.deleteMany({ where: { telegramUserId: 7002n } });
		await db.session.deleteMany({ where: { telegramUserId: 7002n } });
		await db.user.delete({ where: { telegramUserId: 7002n } });
		await db.auditLog.create({
			data: {
				ts: clock.now().toISOString(),
				actor: 'ops',
				action: 'reset_user',
				telegramUserId: 7002n,
				details: '{"packLinks":["u7002_1_by_sticker_kiosk_bot"]}'
			}
		});
		// The retention pass, after the backup, pseudonymises the audit entries of a guest reset long ago.
		await db.$executeRawUnsafe(
			`UPDATE audit_log SET telegram_user_id = NULL, details = '{}' WHERE telegram_user_id = 6001`
		);
		await db.erasure.create({
			data: {
				kind: 'guest',
				subject: pseudonymForGuest(key, 6001n),
				reason: 'retention',
				erasedAt: clock.now().toISOString()
			}
		});
		// The leads feature's erasure: contacts NULL, erased_at set.
		await db.lead.update({
			where: { id: 2 },
			data: {
				name: null,
				telegram: null,
				phone: null,
				comment: null,
				ipHash: null,
				erasedAt: clock.now().toISOString()
			}
		});
		await db.leadRepeat.updateMany({ where: { leadId: 2 }, data: { phone: null, comment: null } });
		await db.$disconnect();

		clock.advance(HOUR);
		const result = await restoreBackup({ backupFile: backup.file, dbPath, dataDir, clock, pseudonymKey: key });
		expect(result.reapplied).toEqual({ guests: 3, leads: 1 });

		const live = new Database(dbPath, { readonly: true });
		const one = (sql: string) => live.prepare(sql).pluck().get();
		expect(live.prepare(`SELECT telegram_user_id FROM users ORDER BY 1`).pluck().all()).toEqual([7003, 7004, 7005]);
		expect(one(`SELECT count(*) FROM jobs WHERE telegram_user_id IN (7001, 7002)`)).toBe(0);
		expect(one(`SELECT count(*) FROM sessions WHERE telegram_user_id IN (7001, 7002)`)).toBe(0);
		expect(live.prepare(`SELECT subject, reason FROM erasures ORDER BY id`).all()).toEqual([
			{ subject: pseudonymForGuest(key, 7001n), reason: 'forget' },
			{ subject: pseudonymForGuest(key, 6001n), reason: 'retention' },
			{ subject: pseudonymForGuest(key, 7002n), reason: 'reset_user' }
		]);
		expect(
			one(
				`SELECT count(*) FROM audit_log WHERE telegram_user_id IS NOT NULL OR details LIKE '%6001%' OR details LIKE '%7002%'`
			)
		).toBe(0);
		expect(
			live
				.prepare(
					`SELECT name, telegram, phone, comment, ip_hash, erased_at IS NOT NULL AS erased FROM leads WHERE id = 2`
				)
				.get()
		).toEqual({
			name: null,
			telegram: null,
			phone: null,
			comment: null,
			ip_hash: null,
			erased: 1
		});
		expect(live.prepare(`SELECT phone, comment FROM lead_repeats WHERE lead_id = 2`).get()).toEqual({
			phone: null,
			comment: null
		});
		expect(one(`SELECT name FROM leads WHERE id = 1`)).toBe('Organiser 1');
		live.close();
	});

	it('stops on a bad file before touching anything: not gzip, a damaged database, not our database', async () => {
		const { dataDir, db, dbPath, clock, key } = await drillSetup();
		await db.$disconnect();
		const before = sha(dbPath);
		const garbage = path.join(dataDir, 'backups', 'app-20270101-000000.db.gz');
		writeFileSync(garbage, 'definitely not gzip');
		await expect(restoreBackup({ backupFile: garbage, dbPath, dataDir, clock, pseudonymKey: key })).rejects.toThrow(
			/cannot be unpacked.*nothing was changed/
		);
		const notOurs = path.join(dataDir, 'other.db');
		const other = new Database(notOurs);
		other.exec('CREATE TABLE t (x)');
		other.close();
		await expect(restoreBackup({ backupFile: notOurs, dbPath, dataDir, clock, pseudonymKey: key })).rejects.toThrow(
			/not a database of this product/
		);
		const damaged = path.join(dataDir, 'damaged.db');
		const bytes = readFileSync(dbPath);
		bytes.fill(0x41, 4096, 12288);
		writeFileSync(damaged, bytes);
		await expect(
			restoreBackup({ backupFile: damaged, dbPath, dataDir, clock, pseudonymKey: key })
		).rejects.toBeInstanceOf(RestoreError);
		expect(sha(dbPath)).toBe(before);
		expect(readdirSync(dataDir).filter((n) => n.includes('.restore-'))).toEqual([]); // no staged copy left behind
		expect(existsSync(`${dbPath}.bak-20270110-033000-before-restore`)).toBe(false);
	});

	it('refuses while a live worker holds main.lock unless --force', async () => {
		const { dataDir, db, dbPath, clock, key, backup } = await drillSetup();
		await db.$disconnect();
		writeFileSync(path.join(dataDir, 'main.lock'), `${process.pid}\n`); // a live process: this test
		await expect(restoreBackup({ backupFile: backup.file, dbPath, dataDir, clock, pseudonymKey: key })).rejects.toThrow(
			/holds .*main\.lock: stop the web and worker services first/
		);
		const forced = await restoreBackup({
			backupFile: backup.file,
			dbPath,
			dataDir,
			clock,
			pseudonymKey: key,
			force: true
		});
		expect(forced.counts.users).toBe(5);
	});

	it('refuses when the current database is unreadable (its erasures would be lost) unless --without-replay', async () => {
		const { dataDir, db, dbPath, clock, key, backup } = await drillSetup();
		await db.$disconnect();
		writeFileSync(dbPath, 'this file was damaged by a disk failure, long enough to not be a header');
		await expect(restoreBackup({ backupFile: backup.file, dbPath, dataDir, clock, pseudonymKey: key })).rejects.toThrow(
			/--without-replay/
		);
		const result = await restoreBackup({
			backupFile: backup.file,
			dbPath,
			dataDir,
			clock,
			pseudonymKey: key,
			withoutReplay: true
		});
		expect(result.reapplied).toBeNull();
		expect(readFileSync(result.keptAside!, 'utf8')).toContain('damaged by a disk failure');
	});
});
