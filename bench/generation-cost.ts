import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pricesFor } from '../src/lib/server/providers/create-provider.ts';
import { summarisePackCost, type PackCost } from '../src/lib/server/spend/pack-cost.ts';
import { createJobLoop } from '../src/worker/queue/start-queue.ts';
import { createGenerationWorld, waitForJobStatus } from '../tests/integration/generation-world.ts';
import type { FaultInput } from '../tools/fake-gemini/faults.ts';
import { IMAGE_TOKENS } from '../tools/fake-gemini/image-size.ts';
import { createFakeGemini } from '../tools/fake-gemini/server.ts';
import { jobLoopInput } from '../tests/helpers/job-loop-input.ts';

/**
 * Cost per pack, measured: one gemini pack through the real job loop against the stand-in, at the
 * list prices the environment defaults to, as api_usage records it — calls, image generations,
 * tokens and dollars. Scenarios: the happy path (2K sheets); the same pack had its sheets come back
 * at 1K (the same calls, the sheets' image tokens at the 1K count — what a pack cost before sheets
 * asked for their size, with stickers upscaled); and a model that ignores imageConfig, so every
 * sheet is drawn again and then figure by figure. Target on the happy path: at most 3 image
 * generations (anchor + 2 sheets).
 *
 *   node --import tsx bench/generation-cost.ts
 */
const MODELS = ['gemini-3.1-flash-image', 'gemini-3.8-flash'];

async function runPack(
	faults: FaultInput[]
): Promise<{ cost: PackCost; sheetImageTokens: number; sheets: number; imagePrice: number }> {
	const dir = mkdtempSync(path.join(tmpdir(), 'bench-cost-'));
	const gemini = await createFakeGemini({ apiKey: 'bench-key', models: MODELS });
	const world = await createGenerationWorld(dir);
	try {
		for (const fault of faults) gemini.control.inject(fault);
		const config = world.config({ IMAGE_PROVIDER: 'gemini', GEMINI_API_KEY: 'bench-key', GEMINI_BASE_URL: gemini.url });
		const loop = await createJobLoop(jobLoopInput(world, config, { workerId: 'bench' }));
		loop.start();
		const jobId = await world.queueJob();
		const status = await waitForJobStatus(world.db, jobId, ['done', 'failed'], 240_000);
		await loop.stop(1000);
		if (status !== 'done') throw new Error(`the pack ended ${status}`);
		const rows = await world.db.apiUsage.findMany({ where: { jobId } });
		const sheets = rows.filter((r) => r.stage === 'sheet' && r.ok === 1);
		return {
			cost: summarisePackCost(rows.map((r) => ({ ...r, ok: r.ok === 1, costUsd: r.estCostUsd ?? 0 }))),
			sheetImageTokens: sheets.reduce((sum, r) => sum + (r.imageTokens ?? 0), 0),
			sheets: sheets.length,
			imagePrice: pricesFor(config).outputImagePerMTok
		};
	} finally {
		await world.close();
		await gemini.close();
		rmSync(dir, { recursive: true, force: true });
	}
}

function line(name: string, cost: PackCost): string {
	const tokens = `${cost.promptTokens} in / ${cost.textTokens} text / ${cost.imageTokens} image / ${cost.thoughtsTokens} thinking`;
	return `${name.padEnd(44)} ${String(cost.calls).padStart(5)} ${String(cost.imageGenerations).padStart(11)}   ${tokens.padEnd(52)} $${cost.usd.toFixed(4)}`;
}

const happy = await runPack([]);
const at1K = { ...happy.cost };
const saved = happy.sheetImageTokens - happy.sheets * IMAGE_TOKENS['1K']!;
at1K.imageTokens -= saved;
at1K.totalTokens -= saved;
at1K.usd = Math.round((at1K.usd - (saved * happy.imagePrice) / 1e6) * 1e6) / 1e6;
const ignored = await runPack([{ kind: 'default_size', match: 'sheet', times: 100 }]);

console.log(
	`prices: $${happy.imagePrice} per million image tokens (${IMAGE_TOKENS['1K']} per 1K image, ${IMAGE_TOKENS['2K']} per 2K image), input and text at the GEMINI_PRICE_* defaults`
);
console.log(
	`${'scenario'.padEnd(44)} ${'calls'.padStart(5)} ${'image gens'.padStart(11)}   ${'tokens per pack'.padEnd(52)} $/pack`
);
console.log(line('gemini, 2K sheets (happy path)', happy.cost));
console.log(line('same pack, sheets at 1K (stickers upscaled)', at1K));
console.log(line('model ignores imageConfig (1K sheets)', ignored.cost));
console.log(
	`happy path: ${happy.cost.imageGenerations} image generations per pack (target ≤ 3: ${happy.cost.imageGenerations <= 3 ? 'met' : 'MISSED'}); 2K sheets cost $${(happy.cost.usd - at1K.usd).toFixed(4)} more per pack than 1K`
);
