import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/lib/server/config/config.ts';
import type { QueueDeps } from '../../src/lib/server/jobs/run/queue-deps.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { createImageProvider } from '../../src/lib/server/providers/create-provider.ts';
import { readProviderRefusal } from '../../src/lib/server/settings/provider-refusal.ts';
import { changeSetting } from '../../src/lib/server/settings/runtime-setting-change.ts';
import { RuntimeSettings, RUNTIME_SETTINGS_TTL_MS } from '../../src/lib/server/settings/runtime-settings.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import { applyRuntimeSettings, ProviderSettingsInUse } from '../../src/worker/tasks/runtime-settings.task.ts';
import { PROJECT_ROOT } from '../helpers/node-process.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { createTestDb } from '../helpers/test-db.ts';

/** OpenAI's GET /models/{id}: it knows gpt-image-1 and nothing else. */
async function fakeOpenAiModels(): Promise<{ url: string; asked: string[]; keys: string[]; server: Server }> {
	const asked: string[] = [];
	const keys: string[] = [];
	const server = createServer((request, response) => {
		const model = decodeURIComponent((request.url ?? '').replace(/^\/v1\/models\//, ''));
		asked.push(model);
		keys.push(request.headers.authorization ?? '');
		response.writeHead(model === 'gpt-image-1' ? 200 : 404, { 'content-type': 'application/json' });
		response.end(JSON.stringify(model === 'gpt-image-1' ? { id: model } : { error: { code: 'model_not_found' } }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, asked, keys, server };
}

/**
 * The worker's runtime-settings pass: slots and admins reach the queue at once; a new image provider
 * or model is used only after the provider has said it knows the model, and an unknown one is
 * refused with a sentence for the Settings page while the old provider keeps drawing.
 */
describe('the worker applying the settings in force', () => {
	const tempDir = useTempDir('runtime-apply-');
	const closers: (() => Promise<void>)[] = [];
	afterEach(async () => {
		for (const close of closers.splice(0)) await close();
	});

	it('moves slots and admins into the queue, and switches the provider only to a model the provider knows', async () => {
		const dir = tempDir();
		const { db, dbEnv } = await createTestDb(dir);
		const openai = await fakeOpenAiModels();
		closers.push(async () => {
			openai.server.close();
			await db.$disconnect();
		});
		const clock = new FakeClock('2026-06-01T10:00:00.000Z');
		const config = parseConfig(
			{ NODE_ENV: 'test', DATA_DIR: dir, ...dbEnv, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: openai.url },
			PROJECT_ROOT
		);
		const runtime = new RuntimeSettings({ db, clock, config });
		const offline = await createImageProvider(config);
		const queue = {
			settings: { slots: 2, adminIds: [] },
			notices: { slots: 2 },
			provider: offline,
			prices: {},
			fallback: undefined
		} as unknown as QueueDeps;
		const statuses = { slots: 2 };
		let openaiKey = 'sk-test';
		const deps = {
			db,
			clock,
			logger: silentLogger,
			runtime,
			secrets: async () => ({ telegramBotToken: undefined, geminiApiKey: undefined, openaiApiKey: openaiKey }),
			providers: new ProviderSettingsInUse(config),
			parts: { queue, statuses }
		};
		const owner = { name: 'olga', ip: null };
		const pass = async () => {
			clock.advance(RUNTIME_SETTINGS_TTL_MS);
			await applyRuntimeSettings(deps);
		};

		await changeSetting({ db, clock, config }, owner, 'workerSlots', '5');
		await changeSetting({ db, clock, config }, owner, 'adminIds', '111, 222');
		await changeSetting({ db, clock, config }, owner, 'imageProvider', 'openai');
		await changeSetting({ db, clock, config }, owner, 'openaiImageModel', 'gpt-imagine-9');
		await pass();
		expect([queue.settings.slots, queue.notices.slots, statuses.slots, queue.settings.adminIds]).toEqual([
			5,
			5,
			5,
			[111n, 222n]
		]);
		expect(queue.provider).toBe(offline);
		expect((await readProviderRefusal(db))?.sentence).toBe(
			'openai does not know the model “gpt-imagine-9”, so the worker keeps drawing with the offline provider. Check the id (OPENAI_IMAGE_MODEL).'
		);
		await pass();
		expect(openai.asked).toEqual(['gpt-imagine-9']); // a refused model is not asked about again each pass

		await changeSetting({ db, clock, config }, owner, 'openaiImageModel', 'gpt-image-1');
		await pass();
		expect(openai.asked).toEqual(['gpt-imagine-9', 'gpt-image-1']);
		expect(queue.provider.name).toBe('openai');
		expect(deps.providers.config.OPENAI_IMAGE_MODEL).toBe('gpt-image-1');
		expect(await readProviderRefusal(db)).toBeNull();

		// A key replaced on the console: asked about with the new key before the provider is rebuilt with it.
		const before = queue.provider;
		openaiKey = 'sk-replaced-on-the-console-0123456789';
		await pass();
		expect(openai.keys.at(-1)).toBe('Bearer sk-replaced-on-the-console-0123456789');
		expect(queue.provider).not.toBe(before);
		expect(deps.providers.config.OPENAI_API_KEY).toBe(openaiKey);
	});
});
