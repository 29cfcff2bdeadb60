import { afterEach, describe, expect, it } from 'vitest';
import { ChatCooldown } from '../../src/lib/server/telegram/flood-control.ts';
import { readModelCheck } from '../../src/lib/server/jobs/model-check-state.ts';
import { createLogger } from '../../src/lib/server/log/logger.ts';
import { endMaintenance, readMaintenance, startMaintenance } from '../../src/lib/server/settings/maintenance.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { runModelCheck } from '../../src/worker/tasks/model-check.task.ts';
import { createFakeGemini, type FakeGemini } from '../../tools/fake-gemini/server.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { createGenerationWorld, type GenerationWorld } from './generation-harness.ts';
import { useGeminiRuns, waitFor } from './generation-gemini-harness.ts';
import { sendPacingFor } from '../helpers/send-pacing.ts';

/** The worker's model check and a model that disappears mid-event, against tools/fake-gemini. */
describe('the model check at start and every hour', () => {
	const tempDir = useTempDir('model-check-');
	let world: GenerationWorld | undefined;
	let gemini: FakeGemini | undefined;
	afterEach(async () => {
		await world?.close();
		await gemini?.close();
		world = gemini = undefined;
	});

	async function setUp(models: string[]) {
		world = await createGenerationWorld(tempDir());
		gemini = await createFakeGemini({ apiKey: 'test-key', models });
		const admin = await world.emulator.control.createUser({ first_name: 'Admin' });
		await world.emulator.control.sendUserMessage({ user_id: admin.id, text: '/start' });
		const config = world.config({
			IMAGE_PROVIDER: 'gemini',
			GEMINI_API_KEY: 'test-key',
			GEMINI_BASE_URL: gemini.url,
			GEMINI_IMAGE_MODEL: 'gemini-3.1-flash-image',
			GEMINI_VISION_MODEL: 'gemini-3-flash',
			ADMIN_TELEGRAM_IDS: String(admin.id)
		});
		const deps = {
			db: world.db,
			clock: systemClock,
			logger: createLogger('test', 'silent'),
			api: world.api,
			pacing: sendPacingFor(world.db, systemClock),
			cooldown: new ChatCooldown(),
			adminIds: [BigInt(admin.id)]
		};
		const w = world;
		const adminMessages = async () =>
			(await w.emulator.control.chatMessages(admin.id)).filter((m) => m.from_bot).map((m) => m.text ?? '');
		return { world: w, gemini: gemini, config, deps, adminMessages };
	}

	it('an unknown vision model pauses the queue (config), names the setting, tells admins once; found again, the pause lifts', async () => {
		const { world, gemini, config, deps, adminMessages } = await setUp(['gemini-3.1-flash-image', 'gemini-3.8-flash']);
		expect(await runModelCheck(config, deps)).toBe('missing');
		const maintenance = await readMaintenance(world.db);
		expect(maintenance).toMatchObject({ source: 'config' });
		expect(maintenance?.reason).toContain('GEMINI_VISION_MODEL');
		expect(maintenance?.reason).toContain('"gemini-3-flash"');
		expect((await readModelCheck(world.db))?.missing).toEqual([
			{ provider: 'gemini', setting: 'GEMINI_VISION_MODEL', model: 'gemini-3-flash' }
		]);
		expect(await runModelCheck(config, deps)).toBe('missing');
		await waitFor(async () => (await adminMessages()).length > 0);
		expect((await adminMessages()).filter((t) => t.includes('GEMINI_VISION_MODEL'))).toHaveLength(1);
		gemini.control.setModels(['gemini-3.1-flash-image', 'gemini-3-flash']);
		expect(await runModelCheck(config, deps)).toBe('ok');
		expect(await readMaintenance(world.db)).toBeNull();
		expect((await readModelCheck(world.db))?.missing).toEqual([]);
		expect((await adminMessages()).some((t) => t.includes('served again'))).toBe(true);
	}, 60_000);

	it('an operator pause stays an operator pause: the check records the missing model but does not take it over or lift it', async () => {
		const { world, gemini, config, deps } = await setUp(['gemini-3.1-flash-image']);
		await startMaintenance(world.db, systemClock, 'admin', 'lunch');
		expect(await runModelCheck(config, deps)).toBe('missing');
		expect(await readMaintenance(world.db)).toMatchObject({ source: 'admin', reason: 'lunch' });
		gemini.control.setModels(['gemini-3.1-flash-image', 'gemini-3-flash']);
		expect(await runModelCheck(config, deps)).toBe('ok');
		expect(await readMaintenance(world.db)).toMatchObject({ source: 'admin' });
	}, 60_000);

	it('a provider that cannot be reached decides nothing: no pause, the last finding stands', async () => {
		const { world, gemini, config, deps } = await setUp(['gemini-3.1-flash-image', 'gemini-3-flash']);
		await gemini.close();
		expect(await runModelCheck(config, deps)).toBe('unreachable');
		expect(await readMaintenance(world.db)).toBeNull();
		expect(await readModelCheck(world.db)).toBeNull();
	}, 60_000);

	it('the offline provider has nothing to check', async () => {
		const { world, deps } = await setUp([]);
		expect(await runModelCheck(world.config({ IMAGE_PROVIDER: 'offline' }), deps)).toBe('none');
	});
});

describe('a model that disappears mid-event', () => {
	const start = useGeminiRuns('model-gone-');

	it('a 404 to generateContent pauses the queue (config) at once: the job waits with its attempt refunded, one call made, admins told once', async () => {
		const { jobId, world, gemini, ...run } = await start([], { GEMINI_VISION_MODEL: 'gemini-retired-flash' });
		await waitFor(async () => (await readMaintenance(world.db)) !== null);
		expect(await readMaintenance(world.db)).toMatchObject({ source: 'config' });
		await waitFor(async () => (await world.db.job.findUniqueOrThrow({ where: { jobId } })).status === 'queued');
		expect(await world.db.job.findUniqueOrThrow({ where: { jobId } })).toMatchObject({ status: 'queued', attempts: 0 });
		const rows = await run.usage(jobId);
		expect(rows.map((r) => [r.stage, r.ok, r.httpStatus])).toEqual([['passport', 0, 404]]);
		expect(rows[0]!.error).toContain('GEMINI_VISION_MODEL');
		await waitFor(async () => (await run.adminMessages()).some((t) => t.includes('GEMINI_VISION_MODEL')));
		const callsWhilePaused = gemini.calls.length;
		await new Promise((resolve) => setTimeout(resolve, 1000));
		expect(gemini.calls.length).toBe(callsWhilePaused);
		gemini.control.setModels(['gemini-3.1-flash-image', 'gemini-retired-flash']);
		await endMaintenance(world.db);
		expect(await run.finalStatus(jobId)).toBe('done');
		expect((await run.adminMessages()).filter((t) => t.includes('GEMINI_VISION_MODEL'))).toHaveLength(1);
	}, 120_000);
});
