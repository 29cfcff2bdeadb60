import { describe, expect, it } from 'vitest';
import { endMaintenance, readMaintenance } from '../../src/lib/server/settings/maintenance.ts';
import { readSetting } from '../../src/lib/server/settings/settings.repository.ts';
import { nextPacificMidnight } from '../../src/lib/server/spend/provider-quota-day.ts';
import { waitForJobStatus } from './generation-harness.ts';
import { useGeminiRuns, waitFor } from './generation-gemini-harness.ts';

/** A reply held this long is only ever ended by its client's timeout. */
const SLOWER_THAN_ANY_LIMIT = 600_000;

/** The gemini provider (real @google/genai client) against tools/fake-gemini, with each fault. */
describe('generation through the gemini provider and the fake Gemini server', () => {
	const start = useGeminiRuns('gen-gemini-', { stillPacks: true });

	it('delivers a 12-sticker set; every call is an api_usage row with tokens and cost', async () => {
		const { jobId, world, gemini, ...run } = await start();
		const status = await waitForJobStatus(world.db, jobId, ['done', 'failed'], 90_000);
		expect(status, (await world.db.job.findUniqueOrThrow({ where: { jobId } })).error ?? '').toBe('done');
		const job = await world.db.job.findUniqueOrThrow({ where: { jobId } });
		expect((await world.emulator.control.getStickerSet(job.packName!))?.stickers).toHaveLength(12);
		expect(job.providerUsed).toBe('gemini');
		const rows = await run.usage(jobId);
		expect(rows.map((r) => r.stage)).toEqual([
			'passport',
			'anchor',
			'anchor_verify',
			'sheet',
			'qa_sheet',
			'sheet',
			'qa_sheet',
			'qa_pack'
		]);
		expect(rows.every((r) => r.ok === 1 && r.provider === 'gemini' && r.httpStatus === 200)).toBe(true);
		const sheet = rows.find((r) => r.stage === 'sheet')!;
		// Asked at 2K in the guide's 3:2 and recorded at the size that came back (1680 image tokens at 2K).
		expect(sheet).toMatchObject({
			kind: 'image',
			model: 'gemini-3.1-flash-image',
			imageTokens: 1680,
			images: 1,
			resolution: '2512x1680'
		});
		expect(sheet.estCostUsd).toBeCloseTo((sheet.promptTokens! * 0.5 + 1680 * 60) / 1e6, 6);
		expect(rows.find((r) => r.stage === 'anchor')).toMatchObject({ imageTokens: 1120, resolution: '880x1184' });
		expect(rows.find((r) => r.stage === 'passport')).toMatchObject({
			kind: 'vision',
			model: 'gemini-3.8-flash',
			thoughtsTokens: 24
		});
		const review = rows.find((r) => r.stage === 'qa_pack')!;
		expect(review).toMatchObject({ kind: 'qa', model: 'gemini-3.8-flash', images: 0 });
		expect(review.estCostUsd).toBeGreaterThan(0);
		expect(rows.filter((r) => r.stage === 'qa_sheet').every((r) => r.kind === 'qa' && r.estCostUsd! > 0)).toBe(true);
		expect(gemini.calls).toHaveLength(8);
		expect(job.renderMode).toBe('figure');
	}, 120_000);

	it('qa_pack: a sticker the review rejects is drawn again once (qa_regen, same attempt), verdicts in job<N>_likeness.json', async () => {
		const { jobId, world, ...run } = await start([{ kind: 'qa_reject', stickers: [3] }]);
		const status = await waitForJobStatus(world.db, jobId, ['done', 'failed'], 90_000);
		expect(status, (await world.db.job.findUniqueOrThrow({ where: { jobId } })).error ?? '').toBe('done');
		expect((await world.db.job.findUniqueOrThrow({ where: { jobId } })).attempts).toBe(1);
		const rows = await run.usage(jobId);
		expect(rows.map((r) => r.stage)).toEqual([
			'passport',
			'anchor',
			'anchor_verify',
			'sheet',
			'qa_sheet',
			'sheet',
			'qa_sheet',
			'qa_pack',
			'qa_regen'
		]);
		const [review, regen] = rows.slice(-2);
		expect(review).toMatchObject({ kind: 'qa', ok: 1, provider: 'gemini', model: 'gemini-3.8-flash' });
		// The vision model at its own price (gemini-3.8-flash: $0.75 in, $3.75 text and thinking out), not the image model's.
		expect(review!.estCostUsd).toBeCloseTo((review!.promptTokens! * 0.75 + 60 * 3.75 + 24 * 3.75) / 1e6, 5);
		expect(regen).toMatchObject({ kind: 'image', ok: 1, images: 1, imageTokens: 1120, resolution: '1024x1024' });
		expect(regen!.estCostUsd).toBeGreaterThan(0);
		const { existsSync, readFileSync } = await import('node:fs');
		const likeness = JSON.parse(
			readFileSync(`${world.dataDir}/debug_sheets/job${jobId}_likeness.json`, 'utf8')
		) as LikenessFile;
		expect(likeness.ok).toBe(true);
		expect(likeness.pack.stickers).toHaveLength(12);
		expect(likeness.pack.stickers.filter((s) => !s.ok).map((s) => [s.n, s.regenerated])).toEqual([[3, true]]);
		expect(likeness.pack.stickers.filter((s) => s.regenerated)).toHaveLength(1);
		expect(likeness.pack.stickers[0]!.likeness).toBeGreaterThan(0.7);
		expect(existsSync(`${world.dataDir}/debug_sheets/job${jobId}_regen3.png`)).toBe(true);
		const job = await world.db.job.findUniqueOrThrow({ where: { jobId } });
		expect((await world.emulator.control.getStickerSet(job.packName!))?.stickers).toHaveLength(12);
	}, 120_000);

	it('qa_sheet: a figure the sheet review rejects is redrawn on its own (regen), the review is kept with the cut diagnosis', async () => {
		const { jobId, world, ...run } = await start([{ kind: 'sheet_reject', stickers: [3] }]);
		expect(await run.finalStatus(jobId)).toBe('done');
		expect((await run.usage(jobId)).map((r) => r.stage)).toEqual([
			'passport',
			'anchor',
			'anchor_verify',
			'sheet',
			'qa_sheet',
			'regen',
			'sheet',
			'qa_sheet',
			'qa_pack'
		]);
		const diagnosis = run.debugJson<{ review: { n: number; ok: boolean }[] }>(jobId, 'sheet1_try1.json');
		expect(diagnosis.review.filter((r) => !r.ok).map((r) => r.n)).toEqual([3]);
		const job = await world.db.job.findUniqueOrThrow({ where: { jobId } });
		expect(job).toMatchObject({ attempts: 1, renderMode: 'figure' });
		expect((await world.emulator.control.getStickerSet(job.packName!))?.stickers).toHaveLength(12);
	}, 120_000);

	it('qa_sheet: a sheet with more than half its figures rejected is drawn again as a whole', async () => {
		const { jobId, ...run } = await start([{ kind: 'sheet_reject', stickers: [7, 8, 9, 10] }]);
		expect(await run.finalStatus(jobId)).toBe('done');
		expect((await run.usage(jobId)).map((r) => r.stage)).toEqual([
			'passport',
			'anchor',
			'anchor_verify',
			'sheet',
			'qa_sheet',
			'sheet',
			'qa_sheet',
			'sheet',
			'qa_sheet',
			'qa_pack'
		]);
		expect(
			run.debugJson<{ review: { ok: boolean }[] }>(jobId, 'sheet2_try1.json').review.filter((r) => !r.ok)
		).toHaveLength(4);
		expect(run.debugJson<{ review: { ok: boolean }[] }>(jobId, 'sheet2_try2.json').review.every((r) => r.ok)).toBe(
			true
		);
	}, 120_000);

	it('composite_fallback: a redrawn figure whose face the pack review still rejects gets the guest’s head (heads)', async () => {
		const { jobId, world, ...run } = await start([
			{ kind: 'sheet_reject', stickers: [3] },
			{ kind: 'qa_reject', stickers: [3] }
		]);
		expect(await run.finalStatus(jobId)).toBe('done');
		const rows = await run.usage(jobId);
		expect(rows.map((r) => r.stage)).toEqual([
			'passport',
			'anchor',
			'anchor_verify',
			'sheet',
			'qa_sheet',
			'regen',
			'sheet',
			'qa_sheet',
			'qa_pack',
			'heads'
		]);
		expect(rows.at(-1)).toMatchObject({ kind: 'image', ok: 1, images: 1, imageTokens: 1120, resolution: '1024x1024' });
		const job = await world.db.job.findUniqueOrThrow({ where: { jobId } });
		expect(job).toMatchObject({ attempts: 1, renderMode: 'composite_fallback' });
		const heads = run.debugJson<{ stickers: Record<string, { placed: boolean }> }>(jobId, 'heads.json');
		expect(Object.entries(heads.stickers).map(([n, v]) => [n, v.placed])).toEqual([['3', true]]);
		const consistency = run.debugJson<{ renderMode: string; stickers: { n: number; ok: boolean; head?: boolean }[] }>(
			jobId,
			'consistency.json'
		);
		expect(consistency.renderMode).toBe('composite_fallback');
		expect(consistency.stickers.filter((s) => s.head).map((s) => [s.n, s.ok])).toEqual([[3, true]]);
		expect((await world.emulator.control.getStickerSet(job.packName!))?.stickers).toHaveLength(12);
	}, 120_000);

	it('RENDER_MODE=composite: one heads call, the guest’s head on all 12 stickers', async () => {
		const { jobId, world, ...run } = await start([], { RENDER_MODE: 'composite' });
		expect(await run.finalStatus(jobId)).toBe('done');
		const rows = await run.usage(jobId);
		expect(rows.map((r) => r.stage)).toEqual([
			'passport',
			'anchor',
			'anchor_verify',
			'sheet',
			'qa_sheet',
			'sheet',
			'qa_sheet',
			'heads',
			'qa_pack'
		]);
		expect(rows.find((r) => r.stage === 'heads')!.estCostUsd).toBeGreaterThan(0);
		const job = await world.db.job.findUniqueOrThrow({ where: { jobId } });
		expect(job.renderMode).toBe('composite');
		const heads = run.debugJson<{ stickers: Record<string, { placed: boolean }> }>(jobId, 'heads.json');
		expect(Object.values(heads.stickers).filter((v) => v.placed)).toHaveLength(12);
		expect((await world.emulator.control.getStickerSet(job.packName!))?.stickers).toHaveLength(12);
	}, 120_000);

	it('per-minute 429 and 503: retried with backoff, recorded (ok=0, cost 0), job done', async () => {
		const { jobId, world, ...run } = await start([
			{ kind: 'quota_minute', times: 2, match: 'image' },
			{ kind: 'server', times: 1, match: 'json' }
		]);
		expect(await waitForJobStatus(world.db, jobId, ['done', 'failed'], 90_000)).toBe('done');
		const failed = (await run.usage(jobId)).filter((r) => r.ok === 0);
		expect(failed.map((r) => r.httpStatus).sort()).toEqual([429, 429, 503]);
		expect(failed.every((r) => r.estCostUsd === 0 && r.error)).toBe(true);
		expect((await world.db.job.findUniqueOrThrow({ where: { jobId } })).attempts).toBe(1);
	}, 120_000);

	it('per-day 429: the queue pauses until midnight Pacific, admins are told, the attempt is not used up', async () => {
		const { jobId, world, ...run } = await start([{ kind: 'quota_day', times: 1, match: 'image' }]);
		await waitFor(async () => (await readSetting(world.db, 'provider_pause')) !== null);
		const pause = JSON.parse((await readSetting(world.db, 'provider_pause'))!) as { until: string };
		expect(pause.until).toBe(nextPacificMidnight(new Date()).toISOString());
		await waitFor(async () => (await world.db.job.findUniqueOrThrow({ where: { jobId } })).status === 'queued');
		const job = await world.db.job.findUniqueOrThrow({ where: { jobId } });
		expect(job.attempts).toBe(0);
		expect(job.error).toMatch(/^requeue: daily quota/);
		await waitFor(async () => (await run.adminMessages()).some((t) => t.includes('daily quota')));
		await new Promise((resolve) => setTimeout(resolve, 800));
		expect((await world.db.job.findUniqueOrThrow({ where: { jobId } })).status).toBe('queued');
	}, 120_000);

	it('billing: maintenance {source: auto}, the queue pauses, and resumes when an operator ends it', async () => {
		const { jobId, world, gemini, ...run } = await start([{ kind: 'billing', times: 1, match: 'image' }]);
		await waitFor(async () => (await readMaintenance(world.db)) !== null);
		expect((await readMaintenance(world.db))?.source).toBe('auto');
		await waitFor(async () => (await world.db.job.findUniqueOrThrow({ where: { jobId } })).status === 'queued');
		await waitFor(async () => (await run.adminMessages()).some((t) => t.includes('billing')));
		const callsWhilePaused = gemini.calls.length;
		await new Promise((resolve) => setTimeout(resolve, 1000));
		expect(gemini.calls.length).toBe(callsWhilePaused);
		expect((await world.db.job.findUniqueOrThrow({ where: { jobId } })).status).toBe('queued');
		await endMaintenance(world.db);
		expect(await waitForJobStatus(world.db, jobId, ['done', 'failed'], 90_000)).toBe('done');
	}, 120_000);

	it('IMAGE_PROVIDER_FALLBACK: gemini out of funds → offline draws the rest, no pause, admins told once per day', async () => {
		const { jobId, world, ...run } = await start([{ kind: 'billing', times: 1000, match: 'image' }], {
			IMAGE_PROVIDER_FALLBACK: 'offline'
		});
		expect(await run.finalStatus(jobId)).toBe('done');
		expect(await readMaintenance(world.db)).toBeNull();
		const job = await world.db.job.findUniqueOrThrow({ where: { jobId } });
		expect(job).toMatchObject({ providerUsed: 'gemini,offline', attempts: 1 });
		const rows = await run.usage(jobId);
		expect(rows.slice(0, 3).map((r) => [r.stage, r.provider, r.ok])).toEqual([
			['passport', 'gemini', 1],
			['anchor', 'gemini', 0],
			['anchor', 'offline', 1]
		]);
		expect(rows.slice(2).every((r) => r.provider === 'offline' && r.ok === 1 && r.estCostUsd === 0)).toBe(true);
		expect((await world.emulator.control.getStickerSet(job.packName!))?.stickers).toHaveLength(12);
		const second = await world.queueJob();
		expect(await run.finalStatus(second)).toBe('done');
		expect((await world.db.job.findUniqueOrThrow({ where: { jobId: second } })).providerUsed).toBe('gemini,offline');
		expect((await run.adminMessages()).filter((t) => t.includes('IMAGE_PROVIDER_FALLBACK'))).toHaveLength(1);
		expect((await run.adminMessages()).some((t) => t.includes('queue is paused'))).toBe(false);
	}, 150_000);

	it('a slow reply past GEMINI_TIMEOUT_SECONDS is aborted, recorded as a timeout and retried', async () => {
		// The slow reply never comes before the client gives up (the fake stops when the client goes
		// away), so however late a loaded machine fires the 5 s timer, the call ends on the timeout.
		const { jobId, world, ...run } = await start(
			[{ kind: 'slow', times: 1, match: 'json', delayMs: SLOWER_THAN_ANY_LIMIT }],
			{
				GEMINI_TIMEOUT_SECONDS: '5'
			}
		);
		expect(await waitForJobStatus(world.db, jobId, ['done', 'failed'], 90_000)).toBe('done');
		const first = (await run.usage(jobId))[0]!;
		expect(first).toMatchObject({ ok: 0, stage: 'passport' });
		expect(first.error).toMatch(/timeout|abort/i);
	}, 120_000);

	it('a sheet one figure short keeps its five figures and draws only the missing one, alone (one small call, not a sheet)', async () => {
		const { jobId, world, gemini, ...run } = await start([
			{ kind: 'wrong_count', times: 1, match: 'sheet', stickers: [3] }
		]);
		expect(await run.finalStatus(jobId)).toBe('done');
		const rows = await run.usage(jobId);
		expect(rows.map((r) => r.stage)).toEqual([
			'passport',
			'anchor',
			'anchor_verify',
			'sheet',
			'qa_sheet',
			'sheet_figure',
			'sheet',
			'qa_sheet',
			'qa_pack'
		]);
		// One extra 1K image (1120 tokens) instead of a whole 2K sheet again.
		expect(rows.find((r) => r.stage === 'sheet_figure')).toMatchObject({
			ok: 1,
			imageTokens: 1120,
			resolution: '1024x1024'
		});
		expect(gemini.calls.filter((c) => c.request === 'sheet')).toHaveLength(2);
		expect(gemini.calls.filter((c) => c.kind === 'image')).toHaveLength(4);
		const diagnosis = run.debugJson<{
			ok: boolean;
			found: number;
			expected: number;
			reason: string;
			drawnAlone: number[];
			review: { n: number }[];
		}>(jobId, 'sheet1_try1.json');
		expect(diagnosis).toMatchObject({ ok: false, found: 5, expected: 6, drawnAlone: [3] });
		expect(diagnosis.reason).toContain('empty cells 3');
		expect(diagnosis.review.map((r) => r.n)).toEqual([1, 2, 4, 5, 6]);
		// The missing figure's caption is drawn in its own place: sticker 3 is the figure of cell 3.
		expect(gemini.calls.find((c) => c.request === 'figure')!.prompt).toMatch(/caption/);
		const job = await world.db.job.findUniqueOrThrow({ where: { jobId } });
		expect(job.attempts).toBe(1);
		expect((await world.emulator.control.getStickerSet(job.packName!))?.stickers).toHaveLength(12);
	}, 120_000);
});

interface LikenessFile {
	ok: boolean;
	pack: { stickers: { n: number; ok: boolean; likeness: number; regenerated: boolean }[] };
}
