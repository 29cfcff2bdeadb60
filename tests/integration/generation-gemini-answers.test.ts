import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readJobDetail } from '../../src/lib/server/console/job-detail.ts';
import { readMaintenance } from '../../src/lib/server/settings/maintenance.ts';
import { useGeminiRuns, waitFor } from './generation-gemini-harness.ts';

/**
 * The gemini provider against the stand-in answering the way real models answer: sizes other
 * than the asked one, thoughts and text around the answer, fenced JSON, JPEG, safety stops and
 * refusals. Each behaviour is armed per request.
 */
describe('gemini: the answers real models give', () => {
	const start = useGeminiRuns('gen-gemini-answers-', { stillPacks: true });

	it('never upscales a 1K sheet into stickers: a small sheet is drawn again, a second one falls back to single figures', async () => {
		// The model ignores imageConfig three times: sheet 1 twice (→ figures alone), sheet 2 once (→ drawn again at 2K).
		const { jobId, world, gemini, ...run } = await start([{ kind: 'default_size', match: 'sheet', times: 3 }]);
		expect(await run.finalStatus(jobId)).toBe('done');
		const rows = await run.usage(jobId);
		const figureStages = Array.from({ length: 6 }, () => 'sheet_figure');
		expect(rows.map((r) => r.stage)).toEqual([
			'passport',
			'anchor',
			'anchor_verify',
			'sheet',
			'sheet',
			...figureStages,
			'qa_sheet',
			'sheet',
			'sheet',
			'qa_sheet',
			'qa_pack'
		]);
		// api_usage says what came back: the 1K default in the anchor's 3:4, not the 2K asked for.
		expect(rows.filter((r) => r.stage === 'sheet').map((r) => r.resolution)).toEqual([
			'880x1184',
			'880x1184',
			'880x1184',
			'2512x1680'
		]);
		expect(
			gemini.calls
				.filter((c) => c.request === 'sheet')
				.every((c) => c.imageConfig?.imageSize === '2K' && c.imageConfig.aspectRatio === '3:2')
		).toBe(true);
		for (const name of ['sheet1_try1.json', 'sheet1_try2.json', 'sheet2_try1.json']) {
			const diagnosis = run.debugJson<{ ok: boolean; reason: string; figures?: unknown }>(jobId, name);
			expect({ ok: diagnosis.ok, reason: diagnosis.reason, cut: diagnosis.figures }).toEqual({
				ok: false,
				reason: 'cells of 293 px (sheet drawn at 880x1184) are under 512 px: not cut, its stickers would be upscaled',
				cut: undefined
			});
		}
		expect(run.debugJson<{ figuresDrawnAlone: number[] }>(jobId, 'sheet1_figures.json').figuresDrawnAlone).toEqual([
			1, 2, 3, 4, 5, 6
		]);
		expect(rows.filter((r) => r.stage === 'sheet_figure').every((r) => r.resolution === '1024x1024')).toBe(true);
		expect(existsSync(`${world.dataDir}/debug_sheets/job${jobId}_sheet2_try2.json`)).toBe(true);
		const job = await world.db.job.findUniqueOrThrow({ where: { jobId } });
		expect({
			attempts: job.attempts,
			stickers: (await world.emulator.control.getStickerSet(job.packName!))?.stickers.length
		}).toEqual({ attempts: 1, stickers: 12 });
	}, 150_000);

	it('reads answers wrapped in thoughts and text, JSON in fences, sheets in JPEG; sends every JSON request its schema', async () => {
		const { jobId, gemini, ...run } = await start([
			{ kind: 'chatty', times: 100 },
			{ kind: 'fenced_json', times: 100 },
			{ kind: 'jpeg', match: 'sheet', times: 100 }
		]);
		expect(await run.finalStatus(jobId)).toBe('done');
		const rows = await run.usage(jobId);
		expect(rows.map((r) => [r.stage, r.ok])).toEqual(
			['passport', 'anchor', 'anchor_verify', 'sheet', 'qa_sheet', 'sheet', 'qa_sheet', 'qa_pack'].map((s) => [s, 1])
		);
		expect(rows.find((r) => r.stage === 'sheet')).toMatchObject({ resolution: '2512x1680', thoughtsTokens: 180 });
		expect(gemini.calls.every((c) => c.faults.includes('chatty'))).toBe(true);
		expect(
			gemini.calls.filter((c) => c.kind === 'json').map((c) => [c.request, c.schema, c.faults.includes('fenced_json')])
		).toEqual(['passport', 'anchor_review', 'sheet_review', 'sheet_review', 'pack_review'].map((r) => [r, true, true]));
	}, 150_000);

	it('asks once more, softened, after a safety stop, a blocked prompt, a text-only answer or no candidates; the console shows why', async () => {
		const { jobId, world, gemini, ...run } = await start([
			{ kind: 'blocked_prompt', reason: 'SAFETY', match: 'passport' },
			{ kind: 'finish', reason: 'IMAGE_SAFETY', match: 'anchor' },
			{ kind: 'text_only', match: 'sheet' },
			{ kind: 'no_candidates', match: 'pack_review' }
		]);
		expect(await run.finalStatus(jobId)).toBe('done');
		const rows = await run.usage(jobId);
		expect(rows.map((r) => [r.stage, r.ok])).toEqual([
			['passport', 0],
			['passport', 1],
			['anchor', 0],
			['anchor', 1],
			['anchor_verify', 1],
			['sheet', 0],
			['sheet', 1],
			['qa_sheet', 1],
			['sheet', 1],
			['qa_sheet', 1],
			['qa_pack', 0],
			['qa_pack', 1]
		]);
		expect(rows.filter((r) => r.ok === 0).map((r) => r.error?.replace(/:.*/, ''))).toEqual([
			'blocked (SAFETY)',
			'blocked (IMAGE_SAFETY)',
			'blocked (NO_IMAGE)',
			'blocked (NO_CANDIDATES)'
		]);
		// Google bills an answer it sent, usable or not: each is costed at its tokens (the text-only sheet at the image model's prices).
		expect(rows.filter((r) => r.ok === 0).every((r) => r.estCostUsd! > 0)).toBe(true);
		const textOnly = rows.find((r) => r.stage === 'sheet' && r.ok === 0)!;
		expect(textOnly).toMatchObject({ model: 'gemini-3.1-flash-image', outputTokens: 22 });
		expect(textOnly.estCostUsd).toBeCloseTo((textOnly.promptTokens! * 0.5 + 22 * 3) / 1e6, 6);
		const softened = gemini.calls
			.filter((c) => /Keep it gentle and family-friendly/.test(c.prompt))
			.map((c) => c.request);
		expect(softened).toEqual(['passport', 'anchor', 'sheet', 'pack_review']);
		expect((await world.db.job.findUniqueOrThrow({ where: { jobId } })).attempts).toBe(1);
		const detail = await readJobDetail(world.db, world.fileStore, jobId);
		expect(detail!.refusals.map((r) => [r.stage, r.failure, r.reason])).toEqual([
			['passport', 'blocked', 'SAFETY'],
			['anchor', 'blocked', 'IMAGE_SAFETY'],
			['sheet', 'blocked', 'NO_IMAGE'],
			['qa_pack', 'blocked', 'NO_CANDIDATES']
		]);
	}, 150_000);

	it('a refusal fails the job at once, without a softened retry; the guest hears a kind sentence, the console the reason', async () => {
		const { jobId, world, gemini, ...run } = await start([
			{ kind: 'finish', reason: 'PROHIBITED_CONTENT', match: 'anchor', times: 10 }
		]);
		expect(await run.finalStatus(jobId)).toMatch(/^failed: ProviderError: refused \(PROHIBITED_CONTENT\)/);
		const job = await world.db.job.findUniqueOrThrow({ where: { jobId } });
		expect(job.attempts).toBe(1);
		expect(gemini.calls.filter((c) => c.request === 'anchor')).toHaveLength(1);
		const told = (await world.emulator.control.chatMessages(world.guestId))
			.filter((m) => m.from_bot)
			.map((m) => m.text ?? '');
		expect(told.at(-1)).toBe(
			'😔 Sorry, our drawing service could not make stickers from this photo. Please ask our staff at the kiosk — a new photo usually works.'
		);
		const detail = await readJobDetail(world.db, world.fileStore, jobId);
		expect(detail!.refusals.map((r) => [r.stage, r.failure, r.reason])).toEqual([
			['anchor', 'refused', 'PROHIBITED_CONTENT']
		]);
		expect(detail!.job.error).toMatch(/^ProviderError: refused \(PROHIBITED_CONTENT\)/);
	}, 120_000);

	it('a sheet with one figure too many is rejected by the cutter and drawn again', async () => {
		const { jobId, ...run } = await start([{ kind: 'extra_figure', match: 'sheet' }]);
		expect(await run.finalStatus(jobId)).toBe('done');
		expect((await run.usage(jobId)).filter((r) => r.stage === 'sheet')).toHaveLength(3);
		expect(run.debugJson<{ ok: boolean; found: number; expected: number }>(jobId, 'sheet1_try1.json')).toMatchObject({
			ok: false,
			found: 7,
			expected: 6
		});
	}, 120_000);

	it('a model the API does not know answers 404 NOT_FOUND, recorded on the call; the queue pauses instead of failing the job', async () => {
		const { jobId, world, ...run } = await start([], {
			GEMINI_VISION_MODEL: 'gemini-0-unknown',
			JOB_MAX_ATTEMPTS: '1'
		});
		await waitFor(async () => (await readMaintenance(world.db))?.source === 'config');
		await waitFor(async () => (await world.db.job.findUniqueOrThrow({ where: { jobId } })).status === 'queued');
		const job = await world.db.job.findUniqueOrThrow({ where: { jobId } });
		expect(job).toMatchObject({ status: 'queued', attempts: 0 });
		expect(job.error).toMatch(/models\/gemini-0-unknown is not found for API version v1beta/);
		const [first] = await run.usage(jobId);
		expect(first).toMatchObject({ stage: 'passport', ok: 0, httpStatus: 404, model: 'gemini-0-unknown' });
	}, 120_000);
});
