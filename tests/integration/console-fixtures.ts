import { parseConfig } from '../../src/lib/server/config/config.ts';
import type { Db } from '../../src/lib/server/db/client.ts';
import { hashPassword } from '../../src/lib/server/auth/password.ts';
import type { OperatorIdentity, Role } from '../../src/lib/server/auth/roles.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { createTrpcContext } from '../../src/lib/server/trpc/init.ts';
import { createCaller } from '../../src/lib/server/trpc/root.ts';
import { FakeClock, type Clock } from '../../src/lib/server/time/clock.ts';
import { createTestDb } from '../helpers/test-db.ts';
import { RuntimeSettings } from '../../src/lib/server/settings/runtime-settings.ts';
import { PROJECT_ROOT } from '../helpers/node-process.ts';
import { localFileStore } from '../helpers/file-store.ts';

/** Shared set-up for the console's integration tests: operators, guests, jobs, spend, a tRPC caller. */

let cachedHash: Promise<string> | undefined;
/** One real argon2id hash reused across operators (hashing is slow on purpose). */
export function testPasswordHash(): Promise<string> {
	cachedHash ??= hashPassword('correct horse battery');
	return cachedHash;
}
export const TEST_PASSWORD = 'correct horse battery';

export async function insertOperator(db: Db, clock: Clock, username: string, role: Role): Promise<OperatorIdentity> {
	const row = await db.operator.create({
		data: { username, role, passwordHash: await testPasswordHash(), createdAt: clock.now().toISOString() }
	});
	return { id: row.id, username, displayName: null, role };
}

export interface GuestSeed {
	id: bigint;
	firstName?: string;
	username?: string;
	packName?: string;
	jobs?: { status: string; packName?: string; costs?: number[] }[];
}

/** A guest with a users row, one session per job, the jobs and their api_usage rows. */
export async function insertGuest(db: Db, clock: Clock, seed: GuestSeed): Promise<number[]> {
	const now = clock.now().toISOString();
	await db.user.create({
		data: {
			telegramUserId: seed.id,
			firstName: seed.firstName ?? 'Guest',
			username: seed.username ?? null,
			consentedAt: now,
			packName: seed.packName ?? null,
			packLink: seed.packName ? `https://t.me/addstickers/${seed.packName}` : null,
			createdAt: now
		}
	});
	const jobIds: number[] = [];
	for (const [index, job] of (seed.jobs ?? []).entries()) {
		const sessionToken = `tok${seed.id}x${index}`;
		await db.session.create({
			data: {
				sessionToken,
				telegramUserId: seed.id,
				status: 'photo_taken',
				templateId: 'suit',
				createdAt: now,
				updatedAt: now
			}
		});
		const created = await db.job.create({
			data: {
				telegramUserId: seed.id,
				sessionToken,
				photoPath: `sessions/${sessionToken}/selfie.jpg`,
				templateId: 'suit',
				status: job.status,
				packName: job.packName ?? null,
				createdAt: now,
				updatedAt: now
			}
		});
		jobIds.push(created.jobId);
		for (const cost of job.costs ?? []) {
			await db.apiUsage.create({
				data: {
					jobId: created.jobId,
					ts: now,
					kind: 'image',
					provider: 'gemini',
					model: 'm',
					estCostUsd: cost,
					ok: 1,
					stage: 'sheet',
					images: 1
				}
			});
		}
	}
	return jobIds;
}

export function testConfig(dir: string) {
	return parseConfig({ NODE_ENV: 'test', DB_PATH: `${dir}/app.db`, DATA_DIR: dir, LOG_LEVEL: 'silent' }, PROJECT_ROOT);
}

/** The real router, called as the browser would, with `operator` signed in (or nobody). */
export function consoleCaller(db: Db, clock: Clock, dir: string, operator: OperatorIdentity | null, ip = '10.0.0.7') {
	const config = testConfig(dir);
	const app = {
		config,
		db,
		clock,
		logger: silentLogger,
		version: 'test',
		fileStore: localFileStore(config.dataDir),
		runtime: new RuntimeSettings({ db, clock, config })
	};
	return createCaller(createTrpcContext(app, new Request('http://localhost/api/trpc'), { operator, clientIp: ip }));
}

/** A fresh database in `dir`, a FakeClock, one operator of each role (olga owner, ivan operator, vera viewer) and a caller per operator. */
export async function startConsoleWorld(dir: string) {
	const { db } = await createTestDb(dir);
	const clock = new FakeClock('2026-06-01T10:00:00.000Z');
	const owner = await insertOperator(db, clock, 'olga', 'owner');
	const ivan = await insertOperator(db, clock, 'ivan', 'operator');
	const vera = await insertOperator(db, clock, 'vera', 'viewer');
	const callerFor = (who: OperatorIdentity) => consoleCaller(db, clock, dir, who);
	return { db, dir, clock, owner, ivan, vera, callerFor };
}
