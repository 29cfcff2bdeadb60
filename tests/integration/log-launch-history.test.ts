import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/lib/server/db/client.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { listWorkerLaunches } from '../../src/lib/server/workers/launch-history.ts';
import { type NodeProcess, startBuiltWorker, waitForOutput } from '../helpers/node-process.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

/** Telegram is a closed port: the worker's calls to it fail and it logs warnings about them. */
function workerEnv(dataDir: string): NodeJS.ProcessEnv {
	return {
		DATA_DIR: dataDir,
		DB_PATH: path.join(dataDir, 'app.db'),
		TELEGRAM_API_ROOT: 'http://127.0.0.1:9',
		TELEGRAM_BOT_TOKEN: ''
	};
}

/** The message of the first warning the worker printed on stdout. */
async function firstWarning(worker: NodeProcess): Promise<string> {
	const out = await waitForOutput(
		worker,
		(text) => text.includes('worker started') && text.includes('"level":40'),
		40_000
	);
	const line = out.split('\n').find((text) => text.includes('"level":40'))!;
	return (JSON.parse(line) as { msg: string }).msg;
}

/** Polls the worker's own database until that warning was flushed (the sink writes every 500 ms). */
async function waitForWarningRow(db: Db, workerId: string, message: string): Promise<void> {
	for (let tries = 0; tries < 100; tries++) {
		if ((await db.logEntry.count({ where: { workerId, message, level: 'warn', process: 'worker' } })) > 0) return;
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	throw new Error(`the worker's warning "${message}" never reached log_entries`);
}

describe("launch history and the worker's log rows (real worker processes)", () => {
	const tempDir = useTempDir();
	const dbs: Db[] = [];
	afterEach(async () => {
		for (const db of dbs.splice(0)) await db.$disconnect();
	});

	it('a SIGTERMed launch ends with a clean stop, a SIGKILLed one with no stop recorded; both keep their warnings', async () => {
		const dataDir = tempDir();
		const first = startBuiltWorker({ env: workerEnv(dataDir) });
		const firstMessage = await firstWarning(first);
		const db = openDatabase(path.join(dataDir, 'app.db'));
		dbs.push(db);
		const [firstLaunch] = await listWorkerLaunches(db, systemClock);
		expect(firstLaunch).toMatchObject({ pid: first.pid, state: 'running', ending: null, stoppedAt: null });
		await waitForWarningRow(db, firstLaunch!.id, firstMessage);
		first.kill('SIGTERM');
		expect((await first.finished).code).toBe(0);

		const second = startBuiltWorker({ env: workerEnv(dataDir) });
		const secondMessage = await firstWarning(second);
		const secondId = (await listWorkerLaunches(db, systemClock)).find((launch) => launch.pid === second.pid)!.id;
		await waitForWarningRow(db, secondId, secondMessage);
		second.kill('SIGKILL');
		await second.finished;

		// A killed worker cannot say so: it shows as silent once its heartbeat is older than 30 s.
		const later = { now: () => new Date(Date.now() + 60_000) };
		const launches = await listWorkerLaunches(db, later);
		expect(launches.map((launch) => [launch.pid, launch.state, launch.ending])).toEqual([
			[second.pid, 'silent', 'no stop recorded'],
			[first.pid, 'stopped', 'clean stop']
		]);
		const [killed, stopped] = launches;
		expect(stopped!.stoppedAt).not.toBeNull();
		expect(stopped!.uptimeSeconds).toBe(
			Math.round((Date.parse(stopped!.stoppedAt!) - Date.parse(stopped!.startedAt)) / 1000)
		);
		expect(killed!.uptimeSeconds).toBe(
			Math.round((Date.parse(killed!.heartbeatAt) - Date.parse(killed!.startedAt)) / 1000)
		);
		expect(stopped!.warnings).toBeGreaterThanOrEqual(1);
		expect(killed!.warnings).toBeGreaterThanOrEqual(1);
		// Info lines (worker started, worker stopped) stay out of the table.
		expect(await db.logEntry.count({ where: { level: { notIn: ['warn', 'error', 'fatal'] } } })).toBe(0);
		expect(await db.logEntry.count({ where: { message: { in: ['worker started', 'worker stopped'] } } })).toBe(0);
		const rows = await db.logEntry.findMany({ select: { workerId: true } });
		expect(new Set(rows.map((row) => row.workerId))).toEqual(new Set([stopped!.id, killed!.id]));
	}, 90_000);
});
