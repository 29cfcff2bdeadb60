import { readdirSync, readFileSync } from 'node:fs';
import { openDatabase, type Db } from '../src/lib/server/db/client.ts';
import { rememberBotUsername } from '../src/lib/server/guests/bot-identity.ts';
import { createKiosk } from '../src/lib/server/kiosk/kiosk-keys.ts';
import { CHECKER_IDLE_MS } from '../src/lib/server/media/upload-checker/child-checker.ts';
import { systemClock } from '../src/lib/server/time/clock.ts';
import { startBuiltWeb, type BuiltWeb } from './_built-web.ts';
import { rssMb } from './_rss.ts';
import { kioskFrame, phonePhoto } from './_upload-photos.ts';

/**
 * Resident memory of the web process and its upload checker process, through the real built
 * server (build/index.js) with MALLOC_ARENA_MAX=2 as `npm start` and the systemd units run it:
 * idle after start; after Start on the kiosk (which warms the checker up); idle after guests
 * uploaded what the kiosk page sends (a 1600×1200 camera frame, capture.ts); idle after
 * 12-megapixel phone selfies; and after the checker's idle exit. The peaks while uploading are
 * sampled every 50 ms (web, checker, and their sum at the same moment). The baseline, in the same
 * run: the check inside the web process (NODE_ENV=test and UPLOAD_CHECK_IN_PROCESS=1), as before
 * the checker process existed. Target: the web process ≤ 200 MB whenever it is idle.
 *   node --import tsx bench/guest-face-check-memory.ts      (needs `npx vite build` first)
 */
const UPLOADS = 6;
const TARGET_MB = 200;
const SETTLE_MS = 3_000;
const SAMPLE_MS = 50;

/** The web process's child, if it runs one (only the upload checker). */
function checkerPid(web: number): number | undefined {
	try {
		const children = readdirSync(`/proc/${web}/task`).flatMap((task) =>
			readFileSync(`/proc/${web}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)
		);
		return children.length > 0 ? Number(children[0]) : undefined;
	} catch {
		return undefined;
	}
}

interface Reading {
	web: number;
	checker: number;
}
const read = (web: number): Reading => ({ web: rssMb(web), checker: rssMb(checkerPid(web)) });
const sum = (r: Reading) => r.web + r.checker;

/** Samples both processes until stopped; keeps each one's peak and the peak of their sum. */
function samplePeaks(web: number): () => { web: number; checker: number; sum: number } {
	const peak = { web: 0, checker: 0, sum: 0 };
	const take = () => {
		const now = read(web);
		peak.web = Math.max(peak.web, now.web);
		peak.checker = Math.max(peak.checker, now.checker);
		peak.sum = Math.max(peak.sum, sum(now));
	};
	const timer = setInterval(take, SAMPLE_MS);
	return () => {
		clearInterval(timer);
		take();
		return peak;
	};
}

const settle = (ms = SETTLE_MS) => new Promise((resolve) => setTimeout(resolve, ms));

/** Start on the kiosk (POST /api/kiosk/sessions, which warms the checker), then the guest's outfit as the bot leaves it. */
async function startGuest(server: BuiltWeb, db: Db, key: string, userId: number): Promise<string> {
	const { base } = server;
	const response = await fetch(`${base}/api/kiosk/sessions`, {
		method: 'POST',
		headers: { cookie: `kiosk_key=${key}`, origin: base, 'content-type': 'application/json' },
		body: '{}'
	});
	if (response.status !== 201) throw new Error(`Start answered ${response.status}: ${await response.text()}`);
	const { token } = (await response.json()) as { token: string };
	const now = new Date().toISOString();
	await db.user.create({ data: { telegramUserId: BigInt(userId), createdAt: now } });
	await db.session.update({
		where: { sessionToken: token },
		data: { status: 'template_chosen', templateId: 'knight', telegramUserId: BigInt(userId), updatedAt: now }
	});
	return token;
}

async function uploadAll(
	server: BuiltWeb,
	db: Db,
	key: string,
	photo: Buffer,
	firstUser: number
): Promise<{ timings: number[]; peak: ReturnType<ReturnType<typeof samplePeaks>> }> {
	const { base, web } = server;
	const timings: number[] = [];
	const stop = samplePeaks(web.pid!);
	for (let i = 0; i < UPLOADS; i++) {
		const token = await startGuest(server, db, key, firstUser + i);
		const started = performance.now();
		const response = await fetch(`${base}/api/kiosk/sessions/${token}/photo`, {
			method: 'POST',
			headers: { cookie: `kiosk_key=${key}`, origin: base, 'content-type': 'image/jpeg' },
			body: new Uint8Array(photo)
		});
		const answer = await response.text();
		if (response.status !== 201) throw new Error(`upload ${i} answered ${response.status}: ${answer}`);
		timings.push(performance.now() - started);
	}
	return { timings, peak: stop() };
}

const mb = (x: number) => (x > 0 ? `${x.toFixed(0)} MB` : '—').padStart(7);
const mark = (web: number) => (web <= TARGET_MB ? '✓' : '✗ over target');
const row = (label: string, r: Reading) =>
	`${label.padEnd(38)} web ${mb(r.web)}  checker ${mb(r.checker)}  sum ${mb(sum(r))}  ${mark(r.web)}`;
const peakRow = (label: string, p: { web: number; checker: number; sum: number }) =>
	`${label.padEnd(38)} web ${mb(p.web)}  checker ${mb(p.checker)}  sum ${mb(p.sum)}  (peaks)`;

/** Returns the web process's highest idle reading. */
async function measure(label: string, env: Record<string, string>, waitForIdleExit: boolean): Promise<number> {
	const server = startBuiltWeb('face-memory', 4590, { BODY_SIZE_LIMIT: '20M', MALLOC_ARENA_MAX: '2', ...env });
	const pid = server.web.pid!;
	try {
		await server.ready();
		await settle();
		const idle = [read(pid)];
		const db = openDatabase(server.dbPath);
		// Two kiosks: one kiosk may start and upload 10 times in a burst (kiosk-http.ts limiters).
		const frames = await createKiosk(db, systemClock, 'bench-frames');
		const phones = await createKiosk(db, systemClock, 'bench-phones');
		await rememberBotUsername(db, systemClock, 'bench_kiosk_bot');
		const frame = await kioskFrame();
		const phone = await phonePhoto();
		const warmStop = samplePeaks(pid);
		await startGuest(server, db, frames.key, 8_900_001);
		await settle(2 * SETTLE_MS);
		const warmPeak = warmStop();
		const warm = read(pid);
		const kioskRun = await uploadAll(server, db, frames.key, frame, 9_000_001);
		await settle();
		idle.push(read(pid));
		const phoneRun = await uploadAll(server, db, phones.key, phone, 9_100_001);
		await settle();
		idle.push(read(pid));
		const ms = (xs: number[]) => xs.map((t) => t.toFixed(0)).join(', ');
		console.log(`— ${label}`);
		console.log(
			`${UPLOADS} kiosk frames (1600×1200, ${(frame.length / 1e3).toFixed(0)} KB): ${ms(kioskRun.timings)} ms`
		);
		console.log(`${UPLOADS} phone selfies (12 MP, ${(phone.length / 1e6).toFixed(1)} MB): ${ms(phoneRun.timings)} ms`);
		console.log(row('idle after start', idle[0]!));
		console.log(row('after Start (checker warmed up)', warm));
		console.log(peakRow('  while warming up', warmPeak));
		console.log(row('idle after kiosk frames', idle[1]!));
		console.log(peakRow('  during kiosk frames', kioskRun.peak));
		console.log(row('idle after 12 MP selfies', idle[2]!));
		console.log(peakRow('  during 12 MP selfies', phoneRun.peak));
		if (waitForIdleExit) {
			await settle(CHECKER_IDLE_MS + SETTLE_MS);
			idle.push(read(pid));
			console.log(row(`after the checker's idle exit (${CHECKER_IDLE_MS / 1000} s)`, idle[3]!));
		}
		await db.$disconnect();
		return Math.max(...idle.map((r) => r.web), warm.web);
	} finally {
		server.stop();
	}
}

delete process.env.MALLOC_ARENA_MAX;
const baseline = await measure('baseline: the check inside the web process', { UPLOAD_CHECK_IN_PROCESS: '1' }, false);
const product = await measure('the upload checker process (npm start, systemd units)', {}, true);
console.log(
	`web process, highest idle reading: ${product.toFixed(0)} MB with the checker process vs ${baseline.toFixed(0)} MB in-process (target ≤ ${TARGET_MB} MB) ${mark(product)}`
);
