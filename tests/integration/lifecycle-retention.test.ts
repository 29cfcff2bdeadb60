import { existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/lib/server/db/client.ts';
import {
	eraseInactiveGuests,
	pseudonymiseOrphanAudit,
	type RetentionDeps
} from '../../src/lib/server/lifecycle/guest-retention.ts';
import { deleteExpiredOperatorSessions } from '../../src/lib/server/auth/operator-session.ts';
import { deleteUnlinkedSessions, removeOldBakFiles } from '../../src/lib/server/lifecycle/housekeeping.ts';
import { loadPseudonymKey, pseudonymForGuest } from '../../src/lib/server/lifecycle/pseudonym.ts';
import { isPackNameRetired } from '../../src/lib/server/lifecycle/retired-pack-names.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { DAY, FakeClock, HOUR } from '../../src/lib/server/time/clock.ts';
import { createTestDb } from '../helpers/test-db.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { insertGuest, writeFileAt } from './lifecycle-fixtures.ts';
import { localFileStore } from '../helpers/file-store.ts';

const NOW = '2027-03-01T12:00:00.000Z';
const daysAgo = (days: number) => new Date(Date.parse(NOW) - days * DAY).toISOString();

async function setup(
	tempDir: () => string
): Promise<{ db: Db; deps: RetentionDeps; dataDir: string; dbPath: string; clock: FakeClock }> {
	const dataDir = tempDir();
	const { db, dbPath } = await createTestDb(dataDir);
	const clock = new FakeClock(NOW);
	const deps: RetentionDeps = {
		db,
		clock,
		logger: silentLogger,
		fileStore: localFileStore(dataDir),
		pseudonymKey: loadPseudonymKey(dataDir),
		retentionDays: 90
	};
	return { db, deps, dataDir, dbPath, clock };
}

describe('guest rows: GUEST_RETENTION_DAYS after the last activity', () => {
	const tempDir = useTempDir('kiosk-retention-');

	it('erases a guest inactive for longer than the period, with their files, and pseudonymises their audit entries', async () => {
		const { db, deps, dataDir } = await setup(tempDir);
		const old = await insertGuest(db, { id: 5550001n, at: daysAgo(91), packName: 'u5550001_1_by_sticker_kiosk_bot' });
		await insertGuest(db, { id: 5550002n, at: daysAgo(89) });
		writeFileAt(path.join(dataDir, 'sessions', old.token, 'stickers/sticker_1.png'), new Date());
		writeFileAt(path.join(dataDir, 'debug_sheets', `job${old.jobId}_anchor.png`), new Date());
		await db.auditLog.create({
			data: {
				ts: daysAgo(95),
				actor: 'ops',
				action: 'grant_extra_pack',
				telegramUserId: 5550001n,
				details: '{"user":5550001,"packs":["https://t.me/addstickers/u5550001_1_by_sticker_kiosk_bot"],"jobs":15550001}'
			}
		});

		// Rows other features keep per job name the guest too (chat ids): they go with the job.
		await db.jobMessage.create({
			data: { jobId: old.jobId!, kind: 'generating', chatId: 5550001n, messageId: 7n, sentAt: daysAgo(91) }
		});
		await db.jobProgress.create({
			data: {
				jobId: old.jobId!,
				stage: 'done',
				stageStartedAt: daysAgo(91),
				updatedAt: daysAgo(91),
				linkChatId: 5550001n
			}
		});
		await db.guestNotice.create({
			data: {
				jobId: old.jobId!,
				telegramUserId: 5550001n,
				kind: 'generating',
				textKey: 'generating',
				state: 'sent',
				nextAttemptAt: daysAgo(91),
				createdAt: daysAgo(91)
			}
		});

		expect(await eraseInactiveGuests(deps)).toBe(1);

		expect(await db.user.findMany({ select: { telegramUserId: true } })).toEqual([{ telegramUserId: 5550002n }]);
		expect(await db.jobMessage.count()).toBe(0);
		expect(await db.jobProgress.count()).toBe(0);
		expect(await db.guestNotice.count()).toBe(0);
		expect(await db.session.count({ where: { telegramUserId: 5550001n } })).toBe(0);
		expect(await db.job.count({ where: { telegramUserId: 5550001n } })).toBe(0);
		expect(await db.apiUsage.count()).toBe(2); // spend stays
		expect(existsSync(path.join(dataDir, 'sessions', old.token))).toBe(false);
		expect(readdirSync(path.join(dataDir, 'debug_sheets'))).toEqual([]);

		const pseudonym = pseudonymForGuest(deps.pseudonymKey, 5550001n);
		const audit = await db.auditLog.findFirstOrThrow({ where: { action: 'grant_extra_pack' } });
		expect(audit.telegramUserId).toBeNull();
		expect(audit.details).not.toMatch(/(?<!\d)5550001(?!\d)/);
		expect(audit.details).toContain(`"user":${pseudonym}`);
		expect(audit.details).toContain('"jobs":15550001'); // a longer number that merely contains the id is untouched

		const ledger = await db.erasure.findMany();
		expect(ledger).toMatchObject([{ kind: 'guest', subject: pseudonym, reason: 'retention', erasedAt: NOW }]);
		expect(JSON.stringify(ledger)).not.toContain('5550001');
		// The never-reuse rule still holds for a guest who comes back, without their id in clear anywhere.
		expect(await isPackNameRetired(db, deps.pseudonymKey, 5550001n, 'u5550001_1_by_sticker_kiosk_bot')).toBe(true);
		expect(await isPackNameRetired(db, deps.pseudonymKey, 5550001n, 'u5550001_2_by_sticker_kiosk_bot')).toBe(false);
		expect(await isPackNameRetired(db, deps.pseudonymKey, 5550002n, 'u5550001_1_by_sticker_kiosk_bot')).toBe(false);
		await db.$disconnect();
	});

	it('counts any recent activity (a new session, a job update) and never erases a guest whose pack is in flight', async () => {
		const { db, deps, clock } = await setup(tempDir);
		await insertGuest(db, { id: 601n, at: daysAgo(200) });
		await db.session.create({
			data: {
				sessionToken: 'tok_601_new',
				telegramUserId: 601n,
				status: 'linked',
				createdAt: daysAgo(10),
				updatedAt: daysAgo(10)
			}
		});
		await insertGuest(db, { id: 602n, at: daysAgo(200), jobStatus: 'processing' });
		await insertGuest(db, { id: 603n, at: daysAgo(200), jobStatus: 'failed' });
		expect(await eraseInactiveGuests(deps)).toBe(1);
		expect((await db.user.findMany({ orderBy: { telegramUserId: 'asc' } })).map((u) => u.telegramUserId)).toEqual([
			601n,
			602n
		]);

		// The same guest 80 days later: now over 90 days since the new session.
		clock.advance(81 * DAY);
		expect(await eraseInactiveGuests(deps)).toBe(1);
		expect((await db.user.findMany()).map((u) => u.telegramUserId)).toEqual([602n]);
		await db.$disconnect();
	});

	it('exactly at the boundary: kept at 90 days minus an hour, gone at 90 days plus an hour', async () => {
		const { db, deps, clock } = await setup(tempDir);
		await insertGuest(db, { id: 701n, at: NOW });
		clock.advance(90 * DAY - HOUR);
		expect(await eraseInactiveGuests(deps)).toBe(0);
		clock.advance(2 * HOUR);
		expect(await eraseInactiveGuests(deps)).toBe(1);
		await db.$disconnect();
	});

	it('audit entries of a guest reset long ago lose the id after the same period; pack names become fingerprints', async () => {
		const { db, deps } = await setup(tempDir);
		const details =
			'{"deleted":{"users":1},"backup":"app.db.bak-20261101-000000-reset","packLinks":["https://t.me/addstickers/u888_2_by_sticker_kiosk_bot"]}';
		await db.auditLog.create({
			data: { ts: daysAgo(100), actor: 'ops', action: 'reset_user', telegramUserId: 888n, details }
		});
		await db.auditLog.create({
			data: { ts: daysAgo(10), actor: 'ops', action: 'reset_user', telegramUserId: 999n, details: '{}' }
		});
		expect(await pseudonymiseOrphanAudit(deps)).toBe(1);
		const rows = await db.auditLog.findMany({ orderBy: { id: 'asc' } });
		expect(rows[0]!.telegramUserId).toBeNull();
		// Not as a number of its own; the pseudonym is hex and may hold the digits 888 by chance.
		expect(rows[0]!.details).not.toMatch(/(?<![0-9a-f])888(?![0-9a-f])/);
		expect(rows[1]!.telegramUserId).toBe(999n);
		expect(await isPackNameRetired(db, deps.pseudonymKey, 888n, 'u888_2_by_sticker_kiosk_bot')).toBe(true);
		await db.$disconnect();
	});
});

describe('the other clocks of the retention pass', () => {
	const tempDir = useTempDir('kiosk-retention-');

	it('sessions never linked to a guest go 24 h after they started; linked ones are not touched by this rule', async () => {
		const { db, clock } = await setup(tempDir);
		const hoursAgo = (h: number) => new Date(clock.now().getTime() - h * HOUR).toISOString();
		await db.session.create({
			data: {
				sessionToken: 'unlinked_old',
				status: 'expired',
				closedReason: 'qr_timeout',
				createdAt: hoursAgo(25),
				updatedAt: hoursAgo(25)
			}
		});
		await db.session.create({
			data: { sessionToken: 'unlinked_young', status: 'idle', createdAt: hoursAgo(23), updatedAt: hoursAgo(23) }
		});
		await insertGuest(db, { id: 42n, at: hoursAgo(48), token: 'linked_old' });
		expect(await deleteUnlinkedSessions(db, clock)).toBe(1);
		expect((await db.session.findMany({ orderBy: { sessionToken: 'asc' } })).map((s) => s.sessionToken)).toEqual([
			'linked_old',
			'unlinked_young'
		]);
		clock.advance(2 * HOUR);
		expect(await deleteUnlinkedSessions(db, clock)).toBe(1);
		await db.$disconnect();
	});

	it('expired operator sessions are purged, live ones kept', async () => {
		const { db, clock } = await setup(tempDir);
		const op = await db.operator.create({ data: { username: 'ops', passwordHash: 'x', createdAt: NOW } });
		await db.operatorSession.create({
			data: {
				id: 'a'.repeat(64),
				operatorId: op.id,
				createdAt: daysAgo(40),
				expiresAt: daysAgo(10),
				absoluteExpiresAt: daysAgo(10)
			}
		});
		await db.operatorSession.create({
			data: {
				id: 'b'.repeat(64),
				operatorId: op.id,
				createdAt: daysAgo(1),
				expiresAt: new Date(Date.parse(NOW) + HOUR).toISOString(),
				absoluteExpiresAt: daysAgo(-29)
			}
		});
		expect(await deleteExpiredOperatorSessions(db, clock)).toBe(1);
		clock.advance(2 * HOUR);
		expect(await deleteExpiredOperatorSessions(db, clock)).toBe(1);
		expect(await db.operatorSession.count()).toBe(0);
		// Expiring exactly now is expired, as the console's own check at request time says.
		await db.operatorSession.create({
			data: {
				id: 'c'.repeat(64),
				operatorId: op.id,
				createdAt: daysAgo(1),
				expiresAt: clock.now().toISOString(),
				absoluteExpiresAt: daysAgo(-29)
			}
		});
		expect(await deleteExpiredOperatorSessions(db, clock)).toBe(1);
		// So is a session whose absolute end (30 days after sign-in) has come, however recently renewed.
		await db.operatorSession.create({
			data: {
				id: 'd'.repeat(64),
				operatorId: op.id,
				createdAt: daysAgo(30),
				expiresAt: daysAgo(-5),
				absoluteExpiresAt: clock.now().toISOString()
			}
		});
		expect(await deleteExpiredOperatorSessions(db, clock)).toBe(1);
		await db.$disconnect();
	});

	it('app.db.bak-* copies go once older than the 14-day backup window (by the stamp in the name, else mtime)', async () => {
		const { db, dbPath, clock } = await setup(tempDir);
		const dir = path.dirname(dbPath);
		const touch = (name: string, mtime = new Date(NOW)) => {
			writeFileSync(path.join(dir, name), 'copy');
			utimesSync(path.join(dir, name), mtime, mtime);
		};
		touch('app.db.bak-20270215-115959'); // 14 days + 1 s
		touch('app.db.bak-20270215-120001-reset'); // 14 days − 1 s
		touch('app.db.bak-20270101-000000-before-restore');
		touch('app.db.bak-by-hand', new Date(daysAgo(15)));
		touch('other.db.bak-20200101-000000');
		expect(await removeOldBakFiles(dbPath, clock, silentLogger)).toBe(3);
		expect(
			readdirSync(dir)
				.filter((n) => n.includes('.bak-'))
				.sort()
		).toEqual(['app.db.bak-20270215-120001-reset', 'other.db.bak-20200101-000000']);
		clock.advance(2000);
		expect(await removeOldBakFiles(dbPath, clock, silentLogger)).toBe(1);
		await db.$disconnect();
	});
});
