import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/lib/server/db/client.ts';
import { FakeClock, MINUTE } from '../../src/lib/server/time/clock.ts';
import { registerWorker, markWorkerStopped } from '../../src/lib/server/workers/worker-registry.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { createTestDb } from '../helpers/test-db.ts';
import { consoleCaller, insertOperator } from './console-fixtures.ts';

/** The logs router as the Logs page calls it: who may read, and what each filter keeps. */
describe('logs router', () => {
	const tempDir = useTempDir();
	const dbs: Db[] = [];
	afterEach(async () => {
		for (const db of dbs.splice(0)) await db.$disconnect();
	});

	async function setUp() {
		const dir = tempDir();
		const { db } = await createTestDb(dir);
		dbs.push(db);
		const clock = new FakeClock('2026-05-01T10:00:00.000Z');
		const worker = { pid: 11, hostname: 'box', version: 'v1', slots: 2 };
		await registerWorker(db, clock, { ...worker, id: 'box:11:1' });
		clock.advance(10 * MINUTE);
		await markWorkerStopped(db, clock, 'box:11:1');
		await registerWorker(db, clock, { ...worker, id: 'box:12:2', pid: 12 });
		const at = clock.now().toISOString();
		await db.logEntry.createMany({
			data: [
				{ at, process: 'worker', level: 'warn', message: 'provider slow', context: '{"job":5}', workerId: 'box:11:1' },
				{
					at,
					process: 'worker',
					level: 'error',
					message: 'upload failed',
					context: '{"job":6,"code":"ETIMEDOUT"}',
					workerId: 'box:12:2'
				},
				{ at, process: 'web', level: 'fatal', message: 'cannot listen', context: null, workerId: null }
			]
		});
		const viewer = await insertOperator(db, clock, 'vic', 'viewer');
		return { db, clock, dir, viewer };
	}

	it('lets a viewer read; refuses nobody signed in', async () => {
		const { db, clock, dir, viewer } = await setUp();
		const logs = consoleCaller(db, clock, dir, viewer).logs;
		expect((await logs.list({})).matching).toBe(3);
		const launches = await logs.launches();
		expect(launches.map((l) => [l.id, l.state, l.ending, l.warnings, l.errors])).toEqual([
			['box:12:2', 'running', null, 0, 1],
			['box:11:1', 'stopped', 'clean stop', 1, 0]
		]);
		expect(launches[1]!.uptimeSeconds).toBe(600);
		await expect(consoleCaller(db, clock, dir, null).logs.list({})).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
	});

	it('filters by process, level (errors include fatal), launch and text in message or context', async () => {
		const { db, clock, dir, viewer } = await setUp();
		const logs = consoleCaller(db, clock, dir, viewer).logs;
		const messages = async (filter: Parameters<typeof logs.list>[0]) =>
			(await logs.list(filter)).entries.map((e) => e.message);
		expect(await messages({})).toEqual(['cannot listen', 'upload failed', 'provider slow']);
		expect(await messages({ process: 'worker' })).toEqual(['upload failed', 'provider slow']);
		expect(await messages({ level: 'error' })).toEqual(['cannot listen', 'upload failed']);
		expect(await messages({ workerId: 'box:11:1' })).toEqual(['provider slow']);
		expect(await messages({ search: 'etimedout' })).toEqual(['upload failed']);
		expect(await messages({ search: 'slow', process: 'web' })).toEqual([]);
		expect((await logs.list({ limit: 1 })).matching).toBe(3);
	});
});
