import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJobDetail } from '../../src/lib/server/console/job-detail.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import { useTestDb } from '../helpers/test-db.ts';
import { insertGuest } from './console-fixtures.ts';
import { localFileStore } from '../helpers/file-store.ts';

/** The Job page's verdict table and the guest's messages, from files and rows as the worker writes them. */
describe('the Job page: what the guest got', () => {
	const freshDb = useTestDb('job-verdicts-');

	it('joins the local gate and the pack review per sticker, and lists the guest’s messages of this job only', async () => {
		const { db, dir } = await freshDb();
		const clock = new FakeClock('2026-06-01T10:00:00.000Z');
		const guest = 5550001n;
		await db.botMessage.create({
			data: {
				telegramUserId: guest,
				direction: 'out',
				kind: 'text',
				text: 'an earlier visit',
				at: '2026-06-01T09:00:00.000Z'
			}
		});
		const [jobId] = await insertGuest(db, clock, { id: guest, jobs: [{ status: 'done' }] });
		await db.job.update({ where: { jobId: jobId! }, data: { updatedAt: '2026-06-01T10:04:00.000Z' } });
		await db.botMessage.create({
			data: {
				telegramUserId: guest,
				direction: 'out',
				kind: 'text',
				text: 'Generating your stickers…',
				at: '2026-06-01T10:00:05.000Z'
			}
		});
		await db.botMessage.create({
			data: { telegramUserId: guest, direction: 'in', kind: 'text', text: 'thanks!', at: '2026-06-01T10:05:00.000Z' }
		});
		await db.botMessage.create({
			data: { telegramUserId: guest, direction: 'out', kind: 'text', text: 'next day', at: '2026-06-02T10:00:00.000Z' }
		});
		const debug = path.join(dir, 'data', 'debug_sheets');
		mkdirSync(debug, { recursive: true });
		const local = (n: number, ok = true) => ({
			n,
			ok,
			faces: ok ? 1 : 2,
			coverage: 0.4,
			reasons: ok ? [] : ['2 faces'],
			meanColour: { r: 1, g: 2, b: 3 },
			regenerated: n === 3
		});
		writeFileSync(
			path.join(debug, `job${jobId}_consistency.json`),
			JSON.stringify({ jobId, stickers: [local(1), local(2), local(3, false)] })
		);
		const review = (n: number, ok = true) => ({
			n,
			ok,
			likeness: ok ? 0.82 : 0.31,
			onePerson: true,
			cropped: false,
			notes: ok ? [] : ['does not look like the anchor'],
			regenerated: n === 3
		});
		writeFileSync(
			path.join(debug, `job${jobId}_likeness.json`),
			JSON.stringify({
				jobId,
				pack: { at: 'x', provider: 'gemini', stickers: [review(1), review(2), review(3, false)] }
			})
		);

		const detail = await readJobDetail(db, localFileStore(path.join(dir, 'data')), jobId!);
		expect(detail?.verdicts).toHaveLength(3);
		expect(detail?.verdicts[2]).toMatchObject({
			n: 3,
			regenerated: true,
			local: { ok: false, faces: 2, reasons: ['2 faces'] },
			review: { ok: false, likeness: 0.31, notes: ['does not look like the anchor'] }
		});
		expect(detail?.verdicts[0]).toMatchObject({
			n: 1,
			regenerated: false,
			local: { ok: true, faces: 1 },
			review: { ok: true, likeness: 0.82 }
		});
		expect(detail?.guestMessages.map((m) => [m.direction, m.text])).toEqual([
			['out', 'Generating your stickers…'],
			['in', 'thanks!']
		]);
	});

	it('shows the state of every notice owed to the guest for this job', async () => {
		const { db, dir } = await freshDb();
		const at = '2026-06-01T10:00:00.000Z';
		const [jobId, other] = await insertGuest(db, new FakeClock(at), {
			id: 5550003n,
			jobs: [{ status: 'failed' }, { status: 'done' }]
		});
		const notice = (job: number, kind: string, fields: object) =>
			db.guestNotice.create({
				data: { jobId: job, telegramUserId: 5550003n, kind, textKey: kind, nextAttemptAt: at, createdAt: at, ...fields }
			});
		await notice(jobId!, 'generating', {
			state: 'sent',
			attempts: 1,
			sentAt: '2026-06-01T10:00:01.000Z',
			messageId: 9n
		});
		await notice(jobId!, 'failure', {
			state: 'queued',
			attempts: 3,
			error: 'Call failed! (500: Internal Server Error)'
		});
		await notice(other!, 'generating', { state: 'blocked', attempts: 1 });
		const detail = await readJobDetail(db, localFileStore(path.join(dir, 'data')), jobId!);
		expect(detail?.notices).toEqual([
			{
				kind: 'generating',
				textKey: 'generating',
				state: 'sent',
				attempts: 1,
				error: null,
				createdAt: at,
				sentAt: '2026-06-01T10:00:01.000Z'
			},
			{
				kind: 'failure',
				textKey: 'failure',
				state: 'queued',
				attempts: 3,
				error: 'Call failed! (500: Internal Server Error)',
				createdAt: at,
				sentAt: null
			}
		]);
	});

	it('a job without verdict files has no rows (unknown, not a pass)', async () => {
		const { db, dir } = await freshDb();
		const [jobId] = await insertGuest(db, new FakeClock(), { id: 5550002n, jobs: [{ status: 'queued' }] });
		const detail = await readJobDetail(db, localFileStore(path.join(dir, 'data')), jobId!);
		expect(detail?.verdicts).toEqual([]);
		expect(detail?.guestMessages).toEqual([]);
	});
});
