import { Writable } from 'node:stream';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/lib/server/db/client.ts';
import { openLogEntryWriter } from '../../src/lib/server/log/log-entry-writer.ts';
import { CONTEXT_MAX_BYTES } from '../../src/lib/server/log/log-line.ts';
import { createLogger } from '../../src/lib/server/log/logger.ts';
import { LogSink } from '../../src/lib/server/log/log-sink.ts';
import { startTs, waitForOutput } from '../helpers/node-process.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { createTestDb } from '../helpers/test-db.ts';

/** Collects what would have gone to stdout, so the test can compare both destinations. */
function memoryStdout(): { stream: Writable; lines: () => Record<string, unknown>[] } {
	let text = '';
	const stream = new Writable({ write: (chunk, _encoding, done) => ((text += String(chunk)), done()) });
	return {
		stream,
		lines: () =>
			text
				.trim()
				.split('\n')
				.filter(Boolean)
				.map((line) => JSON.parse(line) as Record<string, unknown>)
	};
}

describe('warnings and errors in log_entries', () => {
	const tempDir = useTempDir();
	const cleanups: (() => Promise<void> | void)[] = [];
	afterEach(async () => {
		for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
	});

	async function setUp(processName: 'web' | 'worker', options: { maxPending?: number } = {}) {
		const { db, dbPath } = await createTestDb(tempDir());
		const troubles: string[] = [];
		const sink = new LogSink(processName, {
			flushEveryMs: 60_000,
			maxPending: options.maxPending,
			onTrouble: (message) => troubles.push(message)
		});
		sink.attach(openLogEntryWriter(dbPath), processName === 'worker' ? { workerId: 'host:42:1' } : {});
		const stdout = memoryStdout();
		const logger = createLogger(processName, 'info', { warningsTo: sink, stdout: stdout.stream });
		cleanups.push(
			() => sink.close(),
			() => db.$disconnect()
		);
		return { db, dbPath, sink, logger, stdout, troubles };
	}

	const rows = (db: Db) => db.logEntry.findMany({ orderBy: { id: 'asc' } });

	it('stores warn and error lines with process, level and worker launch; info stays on stdout only', async () => {
		const { db, sink, logger, stdout } = await setUp('worker');
		logger.info({ job: 1 }, 'job claimed');
		logger.warn({ job: 1, retryInMs: 2000 }, 'provider slow');
		logger.error({ err: new Error('socket hang up') }, 'upload failed');
		sink.flush();
		const stored = await rows(db);
		expect(stored.map((r) => [r.process, r.level, r.message, r.workerId])).toEqual([
			['worker', 'warn', 'provider slow', 'host:42:1'],
			['worker', 'error', 'upload failed', 'host:42:1']
		]);
		expect(JSON.parse(stored[0]!.context!)).toEqual({ job: 1, retryInMs: 2000 });
		expect(JSON.parse(stored[1]!.context!).err.message).toBe('socket hang up');
		expect(stored[0]!.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
		expect(stdout.lines().map((line) => line.msg)).toEqual(['job claimed', 'provider slow', 'upload failed']);
	});

	it('keeps the redaction of createLogger: no token, password or IP reaches the table', async () => {
		const { db, sink, logger } = await setUp('web');
		logger.warn(
			{
				token: 'tok-123456',
				password: 'hunter2-secret',
				ip: '203.0.113.7',
				request: { token: 'tok-nested', ip: '198.51.100.4', password: 'pw-nested' }
			},
			'sign-in refused'
		);
		sink.flush();
		const [row] = await rows(db);
		expect(row!.process).toBe('web');
		expect(row!.workerId).toBeNull();
		expect(JSON.parse(row!.context!)).toEqual({
			token: '[redacted]',
			password: '[redacted]',
			ip: '[redacted]',
			request: { token: '[redacted]', ip: '[redacted]', password: '[redacted]' }
		});
		const raw = JSON.stringify(row);
		for (const secret of ['tok-123456', 'hunter2-secret', '203.0.113.7', 'tok-nested', '198.51.100.4', 'pw-nested'])
			expect(raw).not.toContain(secret);
	});

	it('caps the context at 2 KB and keeps it valid JSON', async () => {
		const { db, sink, logger } = await setUp('web');
		logger.error({ body: 'x'.repeat(10_000), note: 'é'.repeat(3000) }, 'huge context');
		sink.flush();
		const [row] = await rows(db);
		expect(Buffer.byteLength(row!.context!)).toBeLessThanOrEqual(CONTEXT_MAX_BYTES);
		const context = JSON.parse(row!.context!);
		expect(context).toMatchObject({ truncated: true });
		expect(context.bytes).toBeGreaterThan(10_000);
	});

	it('while another process holds the write lock: logging returns at once, the process keeps serving, lines are kept, overflow is dropped with a count', async () => {
		const { db, dbPath, sink, logger, troubles } = await setUp('worker', { maxPending: 100 });
		const holder = startTs('tests/helpers/hold-write-lock.ts', { args: [dbPath, '120000'] });
		cleanups.push(() => void holder.kill('SIGKILL'));
		await waitForOutput(holder, (out) => out.includes('locked'));

		const server = createServer((_req, res) => res.end('ok'));
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
		const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

		const started = performance.now();
		for (let i = 0; i < 130; i++) {
			logger.warn({ i }, `line ${i}`);
			if (i % 10 === 0) sink.flush();
			if (i % 40 === 0) expect(await (await fetch(url)).text()).toBe('ok');
		}
		sink.flush();
		// busy_timeout 0: every failed flush returned at once. One flush that waited for the lock would
		// take the client's busy_timeout (5 s) by itself; the rest of the loop is far below that even
		// on a busy machine.
		expect(performance.now() - started).toBeLessThan(4_500);
		expect(sink.droppedLines).toBe(30);
		expect(sink.pendingLines).toBe(100);
		expect(troubles).toHaveLength(1);
		expect(troubles[0]).toContain('SQLITE_BUSY');
		expect(await db.logEntry.count()).toBe(0);

		holder.kill('SIGTERM'); // held for as long as the test needed it, not for a guessed time
		await holder.finished;
		sink.flush();
		sink.flush();
		const stored = await rows(db);
		expect(stored.filter((r) => r.message.startsWith('line ')).map((r) => r.message)).toEqual(
			Array.from({ length: 100 }, (_, k) => `line ${k + 30}`)
		);
		const note = stored.find((r) => r.message.includes('dropped'));
		expect(note).toMatchObject({
			level: 'warn',
			process: 'worker',
			message: '30 log lines were dropped while the database was busy'
		});
		expect(sink.pendingLines).toBe(0);
	});
});
