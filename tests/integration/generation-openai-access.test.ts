import { createServer, type Server } from 'node:http';
import { ChatCooldown } from '../../src/lib/server/telegram/flood-control.ts';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeWithoutResets, keepConnectionsLikeAFrontEnd } from '../../tools/http-front.ts';
import { readQueuePause } from '../../src/lib/server/jobs/queue-pause.ts';
import { createLogger } from '../../src/lib/server/log/logger.ts';
import { readMaintenance } from '../../src/lib/server/settings/maintenance.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { runModelCheck } from '../../src/worker/tasks/model-check.task.ts';
import { sendPacingFor } from '../helpers/send-pacing.ts';
import { waitFor } from './generation-gemini-harness.ts';
import { useGenerationWorld } from './generation-harness.ts';

/** A request the stopped worker still has in flight finishes; one still open after this is cut. */
const STAND_IN_CLOSE_GRACE_MS = 1_000;

/**
 * OpenAI refusing our access (401: the key; 403: a country it does not serve, or a model the
 * organisation may not use) is the operator's to fix, not the guest's: like Gemini's key and
 * permission errors the queue pauses (maintenance, source config) with a sentence naming what to
 * change — what Live and Health show — admins hear once, the job goes back with no attempt spent,
 * and the model check passing again lifts the pause. The stand-in answers as OpenAI's API does
 * (its error bodies as documented), first refusing, then — once "fixed" — knowing the model.
 */
interface Refusal {
	status: number;
	error: { message: string; type: string; code: string | null };
	reason: RegExp;
}

const REFUSALS: Record<string, Refusal> = {
	'401 invalid_api_key': {
		status: 401,
		error: {
			message:
				'Incorrect API key provided: sk-revo**********. You can find your API key at https://platform.openai.com/account/api-keys.',
			type: 'invalid_request_error',
			code: 'invalid_api_key'
		},
		reason: /openai refused the API key \(invalid_api_key\).*OPENAI_API_KEY/
	},
	'403 unsupported_country_region_territory': {
		status: 403,
		error: {
			message: 'Country, region, or territory not supported',
			type: 'request_forbidden',
			code: 'unsupported_country_region_territory'
		},
		reason: /openai does not serve this location/
	},
	'403 organization not verified': {
		status: 403,
		error: {
			message: 'Your organization must be verified to use the model `gpt-image-1`.',
			type: 'invalid_request_error',
			code: null
		},
		reason: /openai denied access .*must be verified/
	}
};

function startRefusingOpenAi(
	refusal: Refusal
): Promise<{ url: string; edits: () => number; fix: () => void; server: Server }> {
	let fixed = false;
	let edits = 0;
	const server = createServer((req, res) => {
		req.resume();
		req.on('end', () => {
			if (req.url?.includes('/images/edits')) edits++;
			if (fixed && req.method === 'GET' && req.url?.startsWith('/v1/models/')) {
				res.writeHead(200, { 'content-type': 'application/json' });
				return res.end(
					JSON.stringify({ id: decodeURIComponent(req.url.split('/').at(-1)!), object: 'model', owned_by: 'openai' })
				);
			}
			res.writeHead(refusal.status, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ error: { ...refusal.error, param: null } }));
		});
	});
	keepConnectionsLikeAFrontEnd(server);
	return new Promise((resolve) =>
		server.listen(0, '127.0.0.1', () =>
			resolve({
				url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
				edits: () => edits,
				fix: () => (fixed = true),
				server
			})
		)
	);
}

describe('OpenAI refusing our access pauses the queue', () => {
	let server: Server | undefined;
	// Registered before the world so it runs after the world's own afterEach (vitest runs after-hooks
	// as a stack): the worker loop stops first, and a request it still has in flight gets its answer.
	afterEach(async () => {
		if (server) await closeWithoutResets(server, STAND_IN_CLOSE_GRACE_MS);
		server = undefined;
	});
	const worlds = useGenerationWorld('gen-openai-access-');

	it.each(Object.entries(REFUSALS))(
		'%s: paused with the reason, admins told once, no attempt spent; the model check passing lifts it',
		async (_name, refusal) => {
			const fake = await startRefusingOpenAi(refusal);
			server = fake.server;
			const world = await worlds.open();
			const admin = await world.emulator.control.createUser({ first_name: 'Admin' });
			await world.emulator.control.sendUserMessage({ user_id: admin.id, text: '/start' });
			const jobId = await world.queueJob();
			const second = await world.queueJob();
			const settings = {
				IMAGE_PROVIDER: 'openai',
				OPENAI_API_KEY: 'sk-revoked',
				OPENAI_BASE_URL: fake.url,
				ADMIN_TELEGRAM_IDS: String(admin.id)
			};
			const config = world.config(settings);
			await worlds.startLoop(settings);
			const w = world;
			const adminAlerts = async () =>
				(await w.emulator.control.chatMessages(admin.id)).filter(
					(m) => m.from_bot && /refuses our access/.test(m.text ?? '')
				);

			await waitFor(async () => (await readMaintenance(w.db)) !== null);
			const maintenance = (await readMaintenance(w.db))!;
			expect(maintenance.source).toBe('config');
			expect(maintenance.reason).toMatch(refusal.reason);
			// What Live and Health show: the queue's pause with that sentence.
			expect((await readQueuePause(w.db, systemClock))?.reason).toMatch(refusal.reason);
			for (const id of [jobId, second])
				await waitFor(async () => (await w.db.job.findUniqueOrThrow({ where: { jobId: id } })).status === 'queued');
			for (const id of [jobId, second])
				expect((await w.db.job.findUniqueOrThrow({ where: { jobId: id } })).attempts).toBe(0);
			await waitFor(async () => (await adminAlerts()).length > 0);
			const modelCheck = {
				db: w.db,
				clock: systemClock,
				logger: createLogger('test', 'silent'),
				api: w.api,
				pacing: sendPacingFor(w.db, systemClock),
				cooldown: new ChatCooldown(),
				adminIds: [BigInt(admin.id)]
			};
			// The hourly model check meets the same refusal: the same reason, so no second alert.
			expect(await runModelCheck(config, modelCheck)).toBe('denied');
			expect((await readMaintenance(w.db))?.reason).toMatch(refusal.reason);
			expect(await adminAlerts()).toHaveLength(1);
			// Paused, the queue asks OpenAI nothing more: at most the call each slot had begun, not one per guest and retry.
			expect(fake.edits()).toBeLessThanOrEqual(config.WORKER_SLOTS);

			// The operator fixed the key or the organisation and restarts the worker: its model check at start
			// finds the model and lifts the pause (the stand-in draws nothing, so the loop is stopped first).
			await worlds.stopLoop();
			fake.fix();
			expect(await runModelCheck(config, modelCheck)).toBe('ok');
			expect(await readMaintenance(w.db)).toBeNull();
		},
		120_000
	);
});
