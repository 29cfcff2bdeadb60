import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { resetGuest } from '../../src/lib/server/guests/reset-guest.ts';
import type { Db } from '../../src/lib/server/db/client.ts';
import { deleteGuestRows, isKnownGuest, readGuestFootprint } from '../../src/lib/server/lifecycle/guest-rows.ts';
import { prismaRunner } from '../../src/lib/server/lifecycle/sql-runner.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import { testsRunOnPostgres } from '../helpers/pg-test-db.ts';
import { createTestDb } from '../helpers/test-db.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { insertGuest } from './console-fixtures.ts';
import { countAudience, readStanding } from '../../src/lib/server/broadcasts/audience.ts';
import { turnNewsOn } from '../../src/lib/server/broadcasts/news-choice.ts';
import { queueNewsQuestionOnce } from '../../src/lib/server/broadcasts/news-question.ts';
import { optOutOfBroadcasts } from '../../src/lib/server/broadcasts/opt-out.ts';
import { markBotBlocked } from '../../src/lib/server/guests/bot-blocked.ts';
import { recordConsent, saveGuestProfile } from '../../src/lib/server/guests/guest-profile.ts';
import { eraseInactiveGuests } from '../../src/lib/server/lifecycle/guest-retention.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { DAY } from '../../src/lib/server/time/clock.ts';
import { localFileStore } from '../helpers/file-store.ts';

/** The news question as a delivered pack queues it (send-link.ts), for a job the guest made after the reset. */
async function queueNewsQuestionOnceFor(db: Db, telegramUserId: bigint, nowIso: string): Promise<void> {
	const [jobId] = await insertGuestJob(db, telegramUserId, nowIso);
	await db.$transaction((tx) => queueNewsQuestionOnce(tx, { jobId: jobId!, telegramUserId }, nowIso));
}

async function insertGuestJob(db: Db, telegramUserId: bigint, nowIso: string): Promise<number[]> {
	const token = `after-reset-${telegramUserId}`;
	await db.session.create({
		data: { sessionToken: token, telegramUserId, status: 'photo_taken', createdAt: nowIso, updatedAt: nowIso }
	});
	const job = await db.job.create({
		data: {
			telegramUserId,
			sessionToken: token,
			photoPath: 'x.jpg',
			templateId: 'wizard',
			status: 'done',
			createdAt: nowIso,
			updatedAt: nowIso
		}
	});
	return [job.jobId];
}

describe('reset_user from the console', () => {
	const tempDir = useTempDir('console-reset-');
	const open: Db[] = [];
	afterEach(async () => {
		for (const db of open.splice(0)) await db.$disconnect();
	});

	// The SQLite file's copy; PostgreSQL's backups are the server's dumps, so a reset there takes none.
	const expectedBackup = testsRunOnPostgres() ? null : 'app.db.bak-20260301-100000-reset';

	async function setUp() {
		const dir = tempDir();
		const { db, dbPath } = await createTestDb(dir);
		open.push(db);
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const guest = 5550001n;
		const jobIds = await insertGuest(db, clock, {
			id: guest,
			firstName: 'Anna',
			packName: 'anna_5550001_2_by_sticker_kiosk_bot',
			jobs: [
				{ status: 'done', packName: 'anna_5550001_1_by_sticker_kiosk_bot', costs: [0.04, 0.13] },
				{ status: 'done', packName: 'anna_5550001_2_by_sticker_kiosk_bot', costs: [0.2] }
			]
		});
		const otherJobIds = await insertGuest(db, clock, {
			id: 7770001n,
			firstName: 'Other',
			jobs: [{ status: 'done', costs: [0.5] }]
		});
		const deps = {
			db,
			clock,
			dbPath,
			dataDir: dir,
			fileStore: localFileStore(dir),
			pseudonymKey: Buffer.alloc(32, 7),
			logger: silentLogger
		};
		return { dir, db, dbPath, clock, guest, jobIds, otherJobIds, deps };
	}

	/** The rows other features keep per job: bot messages, the guest notices outbox, live progress, leases, sticker redraws. */
	const PER_JOB_TABLES = ['job_messages', 'guest_notices', 'job_progress', 'job_leases', 'sticker_redraws'] as const;

	async function insertPerJobRows(db: Db, clock: FakeClock, jobId: number, chatId: bigint) {
		const now = clock.now().toISOString();
		await db.jobMessage.create({ data: { jobId, kind: 'link', chatId, messageId: 10n + BigInt(jobId), sentAt: now } });
		await db.guestNotice.create({
			data: {
				jobId,
				telegramUserId: chatId,
				kind: 'generating',
				textKey: 'generating',
				state: 'sent',
				nextAttemptAt: now,
				createdAt: now
			}
		});
		await db.jobProgress.create({
			data: { jobId, stage: 'done', stageStartedAt: now, updatedAt: now, linkChatId: chatId }
		});
		await db.jobLease.create({
			data: { jobId, workerId: 'w1', claimedAt: now, heartbeatAt: now, leaseExpiresAt: now }
		});
		await db.stickerRedraw.create({
			data: { jobId, stickerNumber: 1, status: 'done', requestedBy: 'olga', createdAt: now, updatedAt: now }
		});
	}

	async function countPerJobRows(db: Db, jobIds: number[]): Promise<Record<string, number>> {
		const counts: Record<string, number> = {};
		for (const table of PER_JOB_TABLES) {
			const rows = await db.$queryRawUnsafe<{ n: bigint }[]>(
				`SELECT count(*) AS n FROM ${table} WHERE job_id IN (${jobIds.join(',')})`
			);
			counts[table] = Number(rows[0]?.n);
		}
		return counts;
	}

	const NONE = { job_messages: 0, guest_notices: 0, job_progress: 0, job_leases: 0, sticker_redraws: 0 };
	const ONE_EACH = { job_messages: 1, guest_notices: 1, job_progress: 1, job_leases: 1, sticker_redraws: 1 };

	it('the guest-row delete alone leaves none of the guest’s per-job rows, so a reset needs no second pass over them', async () => {
		const { db, clock, guest, jobIds, otherJobIds } = await setUp();
		for (const jobId of jobIds) await insertPerJobRows(db, clock, jobId, guest);
		await insertPerJobRows(db, clock, otherJobIds[0]!, 7770001n);
		expect(await countPerJobRows(db, jobIds)).toEqual({
			job_messages: 2,
			guest_notices: 2,
			job_progress: 2,
			job_leases: 2,
			sticker_redraws: 2
		});

		const deleted = await db.$transaction(async (tx) => {
			const sql = prismaRunner(tx);
			return deleteGuestRows(sql, guest, await readGuestFootprint(sql, guest));
		});

		expect(deleted).toMatchObject({
			job_messages: 2,
			guest_notices: 2,
			job_progress: 2,
			job_leases: 2,
			sticker_redraws: 2,
			jobs: 2
		});
		expect(await countPerJobRows(db, jobIds)).toEqual(NONE);
		expect(await countPerJobRows(db, otherJobIds)).toEqual(ONE_EACH);
	});

	it('a reset takes every per-job row of the guest and none of another guest’s', async () => {
		const { db, clock, guest, jobIds, otherJobIds, deps } = await setUp();
		for (const jobId of jobIds) await insertPerJobRows(db, clock, jobId, guest);
		await insertPerJobRows(db, clock, otherJobIds[0]!, 7770001n);

		await resetGuest(deps, { name: 'olga', ip: null }, guest);

		expect(await countPerJobRows(db, jobIds)).toEqual(NONE);
		expect(await countPerJobRows(db, otherJobIds)).toEqual(ONE_EACH);
	});

	it('backs up first (the SQLite file; no file on PostgreSQL), deletes the guest’s rows in one go, keeps spend, and records the old pack links', async () => {
		const { dir, db, clock, guest, jobIds, deps } = await setUp();
		const stickerDir = path.join(dir, 'sessions', `tok${guest}x0`, 'stickers');
		mkdirSync(stickerDir, { recursive: true });
		writeFileSync(path.join(stickerDir, 'sticker_1.png'), 'png');

		const now = clock.now().toISOString();
		await db.$executeRaw`INSERT INTO job_progress (job_id, stage, stage_started_at, updated_at, link_chat_id) VALUES (${jobIds[0]}, 'done', ${now}, ${now}, ${guest})`;

		const details = await resetGuest(deps, { name: 'olga', ip: '10.0.0.7' }, guest);

		expect(details.backup).toBe(expectedBackup);
		if (details.backup === null) {
			// On PostgreSQL DB_PATH names nothing: the reset makes no file there, not even an empty one.
			expect(readdirSync(dir).filter((f) => f.startsWith('app.db'))).toEqual([]);
		} else {
			// The backup exists, is named app.db.bak-<ts>-reset and still holds the guest.
			const backupPath = path.join(dir, details.backup);
			expect(existsSync(backupPath)).toBe(true);
			const copy = new Database(backupPath, { readonly: true });
			expect(copy.prepare('SELECT count(*) AS n FROM users WHERE telegram_user_id = ?').get(guest)).toEqual({ n: 1 });
			expect(copy.prepare('SELECT count(*) AS n FROM jobs WHERE telegram_user_id = ?').get(guest)).toEqual({ n: 2 });
			copy.close();
		}

		// Rows gone; the other guest untouched; spend kept.
		expect(await db.user.count({ where: { telegramUserId: guest } })).toBe(0);
		expect(await db.session.count({ where: { telegramUserId: guest } })).toBe(0);
		expect(await db.job.count({ where: { telegramUserId: guest } })).toBe(0);
		expect(await db.user.count({ where: { telegramUserId: 7770001n } })).toBe(1);
		expect(await db.apiUsage.count({ where: { jobId: { in: jobIds } } })).toBe(3);
		expect(await db.apiUsage.count()).toBe(4);
		expect(existsSync(stickerDir)).toBe(false);
		expect(await db.$queryRawUnsafe('SELECT job_id FROM job_progress')).toEqual([]);

		// The audit entry, in the shape generation reads.
		const audit = await db.auditLog.findFirstOrThrow({ where: { action: 'reset_user' } });
		expect(audit).toMatchObject({
			actor: 'olga',
			ip: '10.0.0.7',
			telegramUserId: guest,
			ts: clock.now().toISOString()
		});
		expect(JSON.parse(audit.details!)).toEqual({
			deleted: { users: 1, sessions: 2, jobs: 2 },
			backup: expectedBackup,
			packLinks: [
				'https://t.me/addstickers/anna_5550001_2_by_sticker_kiosk_bot',
				'https://t.me/addstickers/anna_5550001_1_by_sticker_kiosk_bot'
			],
			packNames: ['anna_5550001_1_by_sticker_kiosk_bot', 'anna_5550001_2_by_sticker_kiosk_bot']
		});
		// The erasure ledger knows the guest only by pseudonym.
		const erasure = await db.erasure.findFirstOrThrow();
		expect(erasure.reason).toBe('reset_user');
		expect(erasure.subject).not.toContain('5550001');
	});

	it('keeps the guest’s news opt-out and bot-blocked mark: the person did not change their mind; /forget and retention still take them', async () => {
		const { db, deps, guest } = await setUp();
		const now = deps.clock.now().toISOString();
		await optOutOfBroadcasts(db, deps.clock, guest, 'stop', 'ru');
		await markBotBlocked(db, deps.clock, guest);
		await turnNewsOn(db, deps.clock, 7770001n, 'en');
		await resetGuest(deps, { name: 'olga', ip: null }, guest);
		expect(await db.user.count({ where: { telegramUserId: guest } })).toBe(0);
		expect(await db.newsOptIn.findUniqueOrThrow({ where: { telegramUserId: guest } })).toMatchObject({
			state: 'out',
			via: 'stop',
			answeredAt: now
		});
		expect(await db.guestBotBlock.count({ where: { telegramUserId: guest } })).toBe(1);

		// Back at the kiosk after the reset: a new users row, consent again — and still no news.
		await saveGuestProfile(db, deps.clock, { telegramUserId: guest, firstName: 'Anna' });
		await recordConsent(db, deps.clock, guest);
		expect(await readStanding(db, guest)).toBe('opted_out');
		expect(await countAudience(db, null)).toBe(1); // the other guest, who said yes
		await queueNewsQuestionOnceFor(db, guest, now);
		expect(await db.guestNotice.count({ where: { telegramUserId: guest, kind: 'news_question' } })).toBe(0);

		// Reset again and never come back: the kept choice goes with the retention period, like any guest row.
		await resetGuest(deps, { name: 'olga', ip: null }, guest);
		expect(await isKnownGuest(prismaRunner(db), guest)).toBe(true); // so their /forget erases the kept choice
		deps.clock.advance(91 * DAY);
		await eraseInactiveGuests({ ...deps, retentionDays: 90 });
		expect(await db.newsOptIn.count({ where: { telegramUserId: guest } })).toBe(0);
	});

	it('refuses while the guest’s pack is being made, and leaves everything in place', async () => {
		const { db, deps } = await setUp();
		await insertGuest(db, deps.clock, { id: 8880001n, jobs: [{ status: 'processing' }] });
		await expect(resetGuest(deps, { name: 'olga', ip: null }, 8880001n)).rejects.toMatchObject({
			refusal: { code: 'GuestPackInProgress', telegramUserId: 8880001n }
		});
		expect(await db.job.count({ where: { telegramUserId: 8880001n } })).toBe(1);
		expect(await db.auditLog.count()).toBe(0);
	});

	it('says so when there is no such guest', async () => {
		const { deps } = await setUp();
		await expect(resetGuest(deps, { name: 'olga', ip: null }, 123n)).rejects.toMatchObject({
			refusal: { code: 'GuestNotFound', telegramUserId: 123n, perhapsReset: true }
		});
	});
});
