import { loadavg } from 'node:os';
import { EMULATOR_BOT_TOKEN } from '../src/lib/server/config/config.ts';
import { openPostgresDatabase, type Db } from '../src/lib/server/db/client.ts';
import { endMaintenance, startMaintenance } from '../src/lib/server/settings/maintenance.ts';
import { systemClock } from '../src/lib/server/time/clock.ts';
import { createTelegramEmulator } from '../tools/telegram-emulator/server.ts';
import { createDatabase, createMigratedTemplate, dropDatabase, startPgCluster } from '../tests/helpers/pg-cluster.ts';
import { bucketStore, startS3Server, type S3TestServer } from '../tests/helpers/start-s3-server.ts';
import { makeFaceCrop, makeSelfie } from '../tests/integration/generation-selfie.ts';
import {
	arrivalFigures,
	broadcastCopies,
	queueNewsBroadcast,
	seedLeads,
	seedNewsRecipients,
	seedPackGuest,
	type ArrivalFigures,
	type PackFixtures
} from '../tests/helpers/send-budget-load.ts';
import { startWorkers } from './_workers.ts';

/**
 * Issue #26's send-budget target on real parts: worker processes (src/worker/main.ts) on one
 * PostgreSQL database (a throwaway cluster) and one S3-compatible bucket, the Telegram emulator
 * recording when each Bot API call arrives. Each run sends a broadcast to RECIPIENTS opted-in
 * guests while PACKS guests get their packs (offline image provider) and LEADS landing leads post
 * their cards to the sales group, and reports what the Bot API saw: the most messages in any 1 s
 * window (Telegram: ~30), the most to one chat in any 1 s window (~1), the most to the sales group
 * in any minute (20), and broadcast copies lost or doubled.
 * Baseline in the same run: the same load on ONE worker — the budget has no off switch, and one
 * worker is the pace a single process always had; three workers must not go faster than it.
 *   node --import tsx bench/telegram-send-budget.ts [--quick]     (quick: 150 recipients, 3 packs, 8 leads)
 */
const QUICK = process.argv.includes('--quick');
const RECIPIENTS = QUICK ? 150 : 1000;
const PACKS = QUICK ? 3 : 10;
const LEADS = QUICK ? 8 : 25;
const RUN_TIMEOUT_MS = 4 * 60_000;
const TARGETS = { perSecond: 30, perChat: 1, groupPerMinute: 20 };

interface Run {
	workers: number;
	figures: ArrivalFigures;
	broadcastMs: number;
	packsDone: number;
	packsMs: number;
	cardsPosted: number;
	/** Copies still queued when the run's time ran out (then `lost` counts them too: read it with this). */
	unsent: number;
	lost: number;
	doubled: number;
}

async function runLoad(pgUrl: string, s3: S3TestServer, fixtures: PackFixtures, workerCount: number): Promise<Run> {
	const url = await createDatabase(pgUrl, 'template');
	const db = openPostgresDatabase(url);
	const emulator = await createTelegramEmulator({ botToken: EMULATOR_BOT_TOKEN, callLogLimit: 100_000 });
	try {
		const recipients = await seedNewsRecipients(db, emulator, RECIPIENTS);
		// The queue waits until every worker runs, so one worker's head start does not decide the figures.
		await startMaintenance(db, systemClock, 'admin', 'bench: packs start once every worker runs');
		const files = bucketStore(s3);
		const jobIds: number[] = [];
		for (let n = 1; n <= PACKS; n++) jobIds.push((await seedPackGuest(db, emulator, files, fixtures, n)).jobId);
		const workers = startWorkers(workerCount, {
			NODE_ENV: 'test',
			LOG_LEVEL: 'info',
			TELEGRAM_API_ROOT: emulator.url,
			IMAGE_PROVIDER: 'offline',
			WORKER_SLOTS: '2',
			DATABASE_URL: url,
			...s3.env,
			AWS_ACCESS_KEY_ID: '',
			AWS_SECRET_ACCESS_KEY: ''
		});
		try {
			await workers.started();
			const marker = `News ${Date.now().toString(36)}`;
			const released = Date.now();
			await endMaintenance(db);
			const broadcastId = await queueNewsBroadcast(db, `${marker}: the season opens on Friday.`);
			await seedLeads(db, LEADS);
			const done = await waitForLoad(db, broadcastId, jobIds, released);
			const { lost, doubled } = await broadcastCopies(emulator, recipients, marker);
			return {
				workers: workerCount,
				figures: arrivalFigures(emulator.core.counters.snapshot().calls),
				...done,
				lost: lost.length,
				doubled: doubled.length
			};
		} finally {
			await workers.stop();
		}
	} finally {
		await emulator.close();
		await db.$disconnect();
		await dropDatabase(url);
	}
}

/** Waits until every copy is sent, every pack ended and every card posted; times from the release. */
async function waitForLoad(db: Db, broadcastId: number, jobIds: number[], released: number) {
	const deadline = Date.now() + RUN_TIMEOUT_MS;
	let broadcastMs = 0;
	for (;;) {
		// The recipients' rows are made when a worker starts the broadcast: until then none is queued.
		const started =
			(await db.broadcast.findUnique({ where: { id: broadcastId }, select: { state: true } }))?.state !== 'scheduled';
		const open = started ? await db.broadcastRecipient.count({ where: { broadcastId, state: 'queued' } }) : RECIPIENTS;
		if (open === 0 && broadcastMs === 0) {
			const last = await db.broadcastRecipient.aggregate({ where: { broadcastId }, _max: { sentAt: true } });
			broadcastMs = Date.parse(last._max.sentAt ?? new Date().toISOString()) - released;
		}
		const jobs = await db.job.findMany({ where: { jobId: { in: jobIds } }, select: { status: true, updatedAt: true } });
		const ended = jobs.filter((job) => job.status === 'done' || job.status === 'failed');
		const cardsPosted = await db.lead.count({ where: { publishedAt: { not: null } } });
		const finished = open === 0 && ended.length === jobIds.length && cardsPosted === LEADS;
		if (finished || Date.now() > deadline) {
			const packsMs = ended.length ? Math.max(...ended.map((job) => Date.parse(job.updatedAt))) - released : 0;
			if (!finished)
				console.log(
					`  ⚠ not finished after ${RUN_TIMEOUT_MS / 1000} s: ${open} copies queued, ${ended.length}/${jobIds.length} packs, ${cardsPosted}/${LEADS} cards`
				);
			return {
				broadcastMs,
				packsDone: jobs.filter((job) => job.status === 'done').length,
				packsMs,
				cardsPosted,
				unsent: open
			};
		}
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

const mark = (ok: boolean) => (ok ? '✓' : '✗');

function report(runs: Run[]): void {
	const row = (label: string, cell: (run: Run) => string) =>
		console.log(`  ${label.padEnd(34)}${runs.map((run) => cell(run).padEnd(22)).join('')}`);
	row('', (run) => `${run.workers} worker${run.workers > 1 ? 's' : ''}`);
	row('message calls the Bot API got', (run) => String(run.figures.messages));
	row(
		`peak in any 1 s (≤ ${TARGETS.perSecond})`,
		(run) => `${run.figures.peakPerSecond} ${mark(run.figures.peakPerSecond <= TARGETS.perSecond)}`
	);
	row(
		`most to one chat in 1 s (≤ ${TARGETS.perChat})`,
		(run) => `${run.figures.maxPerChatPerSecond} ${mark(run.figures.maxPerChatPerSecond <= TARGETS.perChat)}`
	);
	row('closest two to one chat', (run) =>
		run.figures.closestChatGapMs === null ? '–' : `${run.figures.closestChatGapMs} ms`
	);
	row('  (those two calls)', (run) => run.figures.closestChatPair?.join(' → ') ?? '–');
	row(
		`sales group in any minute (≤ ${TARGETS.groupPerMinute})`,
		(run) => `${run.figures.maxPerGroupPerMinute} ${mark(run.figures.maxPerGroupPerMinute <= TARGETS.groupPerMinute)}`
	);
	row('closest two to the sales group', (run) =>
		run.figures.closestGroupGapMs === null ? '–' : `${(run.figures.closestGroupGapMs / 1000).toFixed(2)} s`
	);
	row(
		'copies lost / doubled',
		(run) => `${run.lost - run.unsent} / ${run.doubled} ${mark(run.lost === run.unsent && run.doubled === 0)}`
	);
	row(`broadcast to ${RECIPIENTS}`, (run) =>
		run.unsent > 0
			? `${run.unsent} still queued at the end`
			: `${(run.broadcastMs / 1000).toFixed(1)} s, ${(RECIPIENTS / (run.broadcastMs / 1000)).toFixed(1)}/s`
	);
	row(`packs done (of ${PACKS}), last at`, (run) => `${run.packsDone}, ${(run.packsMs / 1000).toFixed(1)} s`);
	row(`cards posted (of ${LEADS})`, (run) => String(run.cardsPosted));
	const [one, three] = runs;
	if (one && three && one.unsent === 0 && three.unsent === 0) {
		console.log(
			`  3 workers / 1 worker: peak ${(three.figures.peakPerSecond / one.figures.peakPerSecond).toFixed(2)}×, broadcast time ${(three.broadcastMs / one.broadcastMs).toFixed(2)}× (one budget: the fleet sends no faster than one worker)`
		);
	}
}

async function main(): Promise<void> {
	console.log(
		`send budget: ${RECIPIENTS} broadcast recipients, ${PACKS} packs (offline), ${LEADS} sales-group cards; PostgreSQL, S3, Telegram emulator${QUICK ? ' (quick)' : ''}`
	);
	const pg = await startPgCluster();
	const s3 = await startS3Server('bench-send-budget');
	try {
		await createMigratedTemplate(pg.url);
		const selfie = await makeSelfie();
		const fixtures = { selfie, faceCrop: await makeFaceCrop(selfie) };
		const runs: Run[] = [];
		for (const workers of [1, 3]) {
			const began = Date.now();
			runs.push(await runLoad(pg.url, s3, fixtures, workers));
			console.log(
				`  (${workers} worker${workers > 1 ? 's' : ''}: ${((Date.now() - began) / 1000).toFixed(0)} s with set-up, load average ${loadavg()[0]!.toFixed(1)})`
			);
		}
		report(runs);
	} finally {
		await s3.close();
		await pg.stop();
	}
}

await main();
