import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EMULATOR_BOT_TOKEN } from '../../../src/lib/server/config/config.ts';
import type { Db } from '../../../src/lib/server/db/client.ts';
import { DEFAULT_EVENT_ID } from '../../../src/lib/server/events/events.repository.ts';
import { readBotUsername } from '../../../src/lib/server/guests/bot-identity.ts';
import { createKiosk } from '../../../src/lib/server/kiosk/kiosk-keys.ts';
import { MINUTE, systemClock } from '../../../src/lib/server/time/clock.ts';
import { seededRandom, type Random } from '../../../tools/fake-gemini/seeded.ts';
import { createTelegramEmulator, type TelegramEmulator } from '../../../tools/telegram-emulator/server.ts';
import { startBuiltWeb } from '../../helpers/built-web.ts';
import { PROJECT_ROOT } from '../../helpers/node-process.ts';
import { usePgTestDb } from '../../helpers/pg-test-db.ts';
import { eventually } from '../guest-harness.ts';
import { useS3Server } from '../../helpers/s3-server.ts';
import { useTempDir } from '../../helpers/temp-dir.ts';
import { overlappingClaims, taskPeriodBreaches, unrunPeriods } from './fleet-checks.ts';
import { walkGuest, type FleetGuestDeps } from './fleet-guests.ts';
import { WorkerFleet, type Launch } from './fleet-workers.ts';

/**
 * The scale-out promise end to end: 2 web processes and 3 workers on one PostgreSQL database and
 * one S3-compatible bucket, 20 guests through the kiosk API (each request to either web process)
 * and the bot (the Telegram emulator), while workers are SIGKILLed at seeded random moments and
 * started again. FLEET_SEED replays another schedule of kills and load-balancer picks.
 */
const SEED = Number(process.env.FLEET_SEED ?? 20261202);
const KIOSKS = 4;
const GUESTS_PER_KIOSK = 5;
const WORKERS = 3;
const MAX_KILLS = 8;
const JOB_DEADLINES_PERIOD_MS = 5_000;

describe(`a fleet on PostgreSQL + S3 with workers killed at random (seed ${SEED})`, () => {
	const database = usePgTestDb();
	const bucket = useS3Server();
	const tempDir = useTempDir('pg-fleet-');
	const cleanUp: (() => Promise<void>)[] = [];
	let reportFailure: (() => Promise<void>) | undefined;
	afterEach(async ({ task }) => {
		// Before anything stops: the report reads the emulator's chats.
		if (task.result?.state === 'fail') await reportFailure?.();
		for (const step of cleanUp.splice(0).reverse()) await step();
	});

	it(
		'every guest gets one set and one link, each fleet task runs once per period, no job is held by two workers',
		{ timeout: 600_000 },
		async () => {
			const { url, db } = database();
			const dir = tempDir();
			// The promise here is about claims, kills and periods, not the stickers' motion: the kiosks'
			// event makes still packs (no clips for ffmpeg), as the queue's other tests do
			// (docs/development.md, "Tests"). Moving stickers had made this file the suite's heaviest.
			await db.event.update({ where: { id: DEFAULT_EVENT_ID }, data: { animatedStickers: 0 } });
			const emulator = await createTelegramEmulator({ botToken: EMULATOR_BOT_TOKEN });
			cleanUp.push(() => emulator.close());
			const shared = { DATABASE_URL: url, DB_PATH: '', TELEGRAM_API_ROOT: emulator.url, ...(await bucket()).env };
			const webs = await Promise.all([0, 1].map((n) => startBuiltWeb(path.join(dir, `web-${n}`), shared)));
			cleanUp.push(async () => void (await Promise.all(webs.map((web) => web.stop()))));
			// A job whose claims all die with their worker fails at JOB_MAX_ATTEMPTS (a poison pill); up to 8
			// kills could hit one job 3 times, and these kills are not the job's doing: every guest still gets a set.
			const fleet = new WorkerFleet(dir, {
				...shared,
				NODE_ENV: 'test',
				LOG_LEVEL: 'debug',
				JOB_LEASE_SECONDS: '10',
				JOB_POLL_MS: '200',
				JOB_BACKOFF_BASE_SECONDS: '0',
				PROVIDER_RETRY_BASE_MS: '20',
				JOB_MAX_ATTEMPTS: '10'
			});
			cleanUp.push(() => fleet.stopAll());
			await Promise.all(Array.from({ length: WORKERS }, (_, slot) => fleet.start(slot)));
			// Fleet tasks are judged from here: before every worker has started, a period may rightly go unrun.
			const began = Date.now();

			// The kiosks' Start needs the bot's name, which a worker records once it has met Telegram.
			await eventually(
				() => readBotUsername(db),
				(name) => name !== null,
				60_000
			);
			const chaos = startChaos(fleet, db, seededRandom(SEED));
			reportFailure = () => writeFailureReport(fleet, emulator);
			const walked = await walkAllGuests({ webs, emulator, random: seededRandom(SEED + 1), botTimeoutMs: 60_000 }, db);
			await waitForAllDone(db, walked.length);
			const killed = await chaos.stop();
			const ended = Date.now();
			await fleet.stopAll();
			const lines = fleet.logLines();
			const context = `seed ${SEED}; killed: ${killed.map((k) => `${k.launch.workerId}${k.heldJob ? ' (holding a job)' : ''}`).join(', ')}`;

			// One set of 12 and one link per guest, whatever the kills did.
			const jobs = await db.job.findMany({ orderBy: { jobId: 'asc' } });
			expect(
				jobs.map((job) => [job.telegramUserId, job.status]),
				context
			).toEqual(walked.map((guest) => [BigInt(guest.guestId), 'done']));
			const sets = await emulator.control.stickerSets();
			for (const guest of walked) {
				const job = jobs.find((row) => row.jobId === guest.jobId)!;
				const own = sets.filter((set) => set.owner_user_id === guest.guestId);
				expect(
					own.map((set) => [set.name, set.stickers.length]),
					`${context}; guest ${guest.guestId}`
				).toEqual([[job.packName, 12]]);
				const links = (await emulator.control.chatMessages(guest.guestId)).filter(
					(m) => m.from_bot && m.text?.includes('https://t.me/addstickers/')
				);
				expect(
					links.map((m) => m.text?.includes(`https://t.me/addstickers/${job.packName}`)),
					`${context}; guest ${guest.guestId}`
				).toEqual([true]);
			}

			// No job was claimed while another launch still held it; killed holders' jobs did move on.
			expect(overlappingClaims(lines), context).toEqual([]);
			expect(killed.length, context).toBeGreaterThanOrEqual(3);
			if (killed.some((k) => k.heldJob))
				expect(lines.filter((line) => line.msg === 'job claimed').length, context).toBeGreaterThan(walked.length);

			// Each fleet-wide task ran once in each period it was claimed, and no period went unrun.
			const rows = await db.scheduledTaskRun.findMany();
			expect(taskPeriodBreaches(lines, rows), context).toEqual([]);
			expect(unrunPeriods(lines, rows, 'job-deadlines', JOB_DEADLINES_PERIOD_MS, began, ended), context).toEqual([]);
			for (const task of ['leads-reminders', 'rpd-warning'])
				expect(unrunPeriods(lines, rows, task, MINUTE, began, ended), context).toEqual([]);
		}
	);
});

/**
 * What a failed run needs to be understood: every launch's log lines and every chat, written to
 * .tmp/ (the temporary folders are gone by then). The failure message names the file.
 */
async function writeFailureReport(fleet: WorkerFleet, emulator: TelegramEmulator): Promise<void> {
	const file = path.join(PROJECT_ROOT, '.tmp', `fleet-failure-seed-${SEED}.json`);
	const chats = await Promise.all(
		(await emulator.control.users()).map(async (user) => ({
			user: user.id,
			messages: await emulator.control.chatMessages(user.id)
		}))
	);
	const lines = fleet
		.logLines()
		.map((line) => ({ workerId: line.launch.workerId, killedAt: line.launch.killedAt, ...line.fields }));
	mkdirSync(path.dirname(file), { recursive: true });
	writeFileSync(file, JSON.stringify({ seed: SEED, lines, chats, updates: await emulator.control.updates() }, null, 1));
	console.error(`the fleet test failed: its workers' logs and the chats are in ${file}`);
}

/** Each kiosk serves its guests one after another; the kiosks run side by side. */
async function walkAllGuests(deps: FleetGuestDeps, db: Db) {
	const kiosks = await Promise.all(Array.from({ length: KIOSKS }, (_, k) => createKiosk(db, systemClock, `hall-${k}`)));
	const guests = await Promise.all(
		Array.from({ length: KIOSKS * GUESTS_PER_KIOSK }, (_, n) =>
			deps.emulator.control.createUser({ first_name: `Guest${n}`, language_code: 'en' })
		)
	);
	const perKiosk = await Promise.all(
		kiosks.map(async ({ key }, k) => {
			const walked = [];
			for (let n = 0; n < GUESTS_PER_KIOSK; n++)
				walked.push(await walkGuest(deps, key, guests[k * GUESTS_PER_KIOSK + n]!.id));
			return walked;
		})
	);
	return perKiosk.flat().sort((a, b) => a.jobId - b.jobId);
}

async function waitForAllDone(db: Db, count: number): Promise<void> {
	const deadline = Date.now() + 300_000;
	for (;;) {
		const jobs = await db.job.findMany({ select: { jobId: true, status: true, error: true } });
		const failed = jobs.filter((job) => job.status === 'failed');
		if (failed.length) throw new Error(`jobs failed: ${JSON.stringify(failed)}`);
		if (jobs.length === count && jobs.every((job) => job.status === 'done')) return;
		if (Date.now() > deadline) throw new Error(`not all jobs done: ${JSON.stringify(jobs)}`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

interface Kill {
	launch: Launch;
	heldJob: boolean;
}

/**
 * SIGKILLs a worker every 2–6 s (seeded) and starts it again, one at a time, until stopped or
 * MAX_KILLS. Every other kill aims at a worker that holds a job right then, so mid-pack deaths
 * happen whatever the timing; the rest pick any slot.
 */
function startChaos(fleet: WorkerFleet, db: Db, random: Random): { stop(): Promise<Kill[]> } {
	const kills: Kill[] = [];
	let stopped = false;
	const loop = (async () => {
		while (!stopped && kills.length < MAX_KILLS) {
			await new Promise((resolve) => setTimeout(resolve, 2000 + random() * 4000));
			if (stopped) break;
			const holders = await workersHoldingJobs(db);
			const aimed =
				kills.length % 2 === 1
					? Array.from({ length: WORKERS }, (_, slot) => slot).filter((slot) =>
							holders.has(fleet.current(slot).workerId)
						)
					: [];
			const slot = aimed.length ? aimed[Math.floor(random() * aimed.length)]! : Math.floor(random() * WORKERS);
			const launch = fleet.current(slot);
			kills.push({ launch, heldJob: holders.has(launch.workerId) });
			await fleet.killAndRestart(slot);
		}
	})();
	return {
		stop: async () => {
			stopped = true;
			await loop;
			return kills;
		}
	};
}

async function workersHoldingJobs(db: Db): Promise<Set<string>> {
	const processing = await db.job.findMany({ where: { status: 'processing' }, select: { jobId: true } });
	const leases = await db.jobLease.findMany({
		where: { jobId: { in: processing.map((job) => job.jobId) } },
		select: { workerId: true }
	});
	return new Set(leases.map((lease) => lease.workerId));
}
