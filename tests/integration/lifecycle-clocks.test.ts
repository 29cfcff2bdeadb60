import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/lib/server/db/client.ts';
import { eraseExpiredLeads } from '../../src/lib/server/leads/lead-erasure.ts';
import { loadPseudonymKey } from '../../src/lib/server/lifecycle/pseudonym.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { DAY, FakeClock, HOUR, MINUTE } from '../../src/lib/server/time/clock.ts';
import { runRetention } from '../../src/worker/tasks/retention.task.ts';
import { runTtlSweep } from '../../src/worker/tasks/ttl-sweep.task.ts';
import { createTestDb } from '../helpers/test-db.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { insertGuest, writeFileAt } from './lifecycle-fixtures.ts';
import { localFileStore } from '../helpers/file-store.ts';

// Every place personal data is kept (docs/data-lifecycle.md), end to end on one fake clock: every piece is
// put in place at T0, then the hourly passes of the worker (TTL sweep, retention, and the leads
// feature's retention) run at the last moment each piece must still be kept, and right after. The selfie-after-set clock
// is generation's (deliverPack) and is proven in its own tests.

const T0 = Date.parse('2027-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

interface World {
	db: Db;
	clock: FakeClock;
	dataDir: string;
	dbPath: string;
	selfie: string;
	debugSheet: string;
	bakFile: string;
}

async function buildWorld(dataDir: string): Promise<World> {
	const { db, dbPath } = await createTestDb(dataDir);
	const clock = new FakeClock(iso(T0));
	const { token, jobId } = await insertGuest(db, {
		id: 424242n,
		at: iso(T0),
		jobStatus: 'done',
		packName: 'p424242_1_by_sticker_kiosk_bot'
	});
	// A second guest's pack is still being made: its appearance card has the 15-minute clock.
	await insertGuest(db, { id: 535353n, at: iso(T0), jobStatus: 'processing' });
	const selfie = writeFileAt(path.join(dataDir, 'sessions', token, 'face_crop.jpg'), new Date(T0));
	// The pipeline writes its debug sheet an hour after the selfie arrived: its clock starts then.
	const debugSheet = writeFileAt(
		path.join(dataDir, 'debug_sheets', `job${jobId}_sheet1_try1.png`),
		new Date(T0 + HOUR)
	);
	await db.session.create({
		data: {
			sessionToken: 'never_scanned',
			status: 'expired',
			closedReason: 'qr_timeout',
			createdAt: iso(T0),
			updatedAt: iso(T0)
		}
	});
	const op = await db.operator.create({ data: { username: 'ops', passwordHash: 'x', createdAt: iso(T0) } });
	await db.operatorSession.create({
		data: {
			id: 'c'.repeat(64),
			operatorId: op.id,
			createdAt: iso(T0),
			expiresAt: iso(T0 + 12 * HOUR),
			absoluteExpiresAt: iso(T0 + 30 * DAY)
		}
	});
	const bakFile = path.join(path.dirname(dbPath), 'app.db.bak-20270101-000000-reset');
	writeFileSync(bakFile, 'copy');
	utimesSync(bakFile, new Date(T0), new Date(T0));
	await db.lead.create({
		data: {
			requestId: 'spam-1',
			createdAt: iso(T0),
			status: 'spam',
			statusAt: iso(T0),
			name: 'Spammer',
			phone: '+998900000001'
		}
	});
	await db.lead.create({
		data: {
			requestId: 'deal-1',
			createdAt: iso(T0),
			status: 'deal',
			statusAt: iso(T0),
			name: 'Organiser',
			phone: '+998900000002'
		}
	});
	return { db, clock, dataDir, dbPath, selfie, debugSheet, bakFile };
}

/** Everything the worker runs every hour that makes personal data leave. */
async function runHourlyPasses(w: World): Promise<void> {
	const deps = {
		db: w.db,
		clock: w.clock,
		logger: silentLogger,
		dataDir: w.dataDir,
		fileStore: localFileStore(w.dataDir)
	};
	await runTtlSweep({ ...deps, ttlHours: 72 });
	await runRetention({ ...deps, dbPath: w.dbPath, pseudonymKey: loadPseudonymKey(w.dataDir), retentionDays: 90 });
	await eraseExpiredLeads({ db: w.db, clock: w.clock });
}

const leadName = async (db: Db, requestId: string) => (await db.lead.findUniqueOrThrow({ where: { requestId } })).name;

/**
 * [what, still there at (after T0; null = no earlier moment to check), gone by, is it still there?]
 * in the order of the table on docs/data-lifecycle.md. "Still there" is the last hourly pass that must keep it.
 */
const CLOCKS: [string, number | null, number, (w: World) => Promise<boolean>][] = [
	[
		'appearance card of a finished job: the next hourly pass',
		null,
		MINUTE,
		async (w) => (await w.db.job.findFirstOrThrow({ where: { telegramUserId: 424242n } })).appearanceJson !== null
	],
	[
		'appearance card of an active job: 15 minutes',
		14 * MINUTE,
		16 * MINUTE,
		async (w) => (await w.db.job.findFirstOrThrow({ where: { telegramUserId: 535353n } })).appearanceJson !== null
	],
	[
		'operator session at its expires_at',
		12 * HOUR - MINUTE,
		12 * HOUR + MINUTE,
		async (w) => (await w.db.operatorSession.count()) > 0
	],
	[
		'session never linked to a guest: 24 h',
		24 * HOUR - MINUTE,
		24 * HOUR + MINUTE,
		async (w) => (await w.db.session.count({ where: { sessionToken: 'never_scanned' } })) > 0
	],
	// Files go from TTL − 1 h on, so that with an hourly pass none outlives the TTL.
	[
		'photo files: PHOTO_TTL_HOURS=72, never later',
		71 * HOUR - MINUTE,
		71 * HOUR + 30 * MINUTE,
		async (w) => existsSync(w.selfie)
	],
	[
		'debug sheets: the same TTL, from their own mtime',
		72 * HOUR - MINUTE,
		73 * HOUR,
		async (w) => existsSync(w.debugSheet)
	],
	[
		'app.db.bak-* copy: the 14-day backup window',
		14 * DAY - MINUTE,
		14 * DAY + MINUTE,
		async (w) => existsSync(w.bakFile)
	],
	[
		'spam lead contacts: 30 days (leads feature)',
		30 * DAY - MINUTE,
		30 * DAY + MINUTE,
		async (w) => (await leadName(w.db, 'spam-1')) !== null
	],
	[
		'guest rows: GUEST_RETENTION_DAYS=90 after the last activity',
		90 * DAY - MINUTE,
		90 * DAY + MINUTE,
		async (w) => (await w.db.user.count({ where: { telegramUserId: 424242n } })) > 0
	],
	[
		'other lead contacts: 365 days (leads feature)',
		365 * DAY - MINUTE,
		365 * DAY + MINUTE,
		async (w) => (await leadName(w.db, 'deal-1')) !== null
	]
];

describe('every clock of the personal-data table, on one fake clock', () => {
	const tempDir = useTempDir('kiosk-clocks-');

	it('each piece is there just before its deadline and gone at the first hourly pass after it', async () => {
		const w = await buildWorld(tempDir());
		for (const [what, stillThereAt, goneBy, present] of CLOCKS) {
			if (stillThereAt !== null) {
				w.clock.set(iso(T0 + stillThereAt));
				await runHourlyPasses(w);
				expect(await present(w), `${what}: should still be there`).toBe(true);
			}
			w.clock.set(iso(T0 + goneBy));
			await runHourlyPasses(w);
			expect(await present(w), `${what}: should be gone`).toBe(false);
		}
		// What stays: spend (no guest in it), the lead rows and their statuses, the erasure ledger.
		expect(await w.db.apiUsage.count()).toBe(2);
		expect(await w.db.lead.count()).toBe(2);
		expect(await w.db.erasure.count({ where: { kind: 'guest', reason: 'retention' } })).toBe(1);
		await w.db.$disconnect();
	}, 60_000);
});
