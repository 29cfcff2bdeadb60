import { readFileSync } from 'node:fs';
import { openDatabase, type Db } from '../src/lib/server/db/client.ts';
import { rememberBotUsername } from '../src/lib/server/guests/bot-identity.ts';
import { createKiosk } from '../src/lib/server/kiosk/kiosk-keys.ts';
import { startKioskSession } from '../src/lib/server/kiosk/kiosk-session.ts';
import { systemClock } from '../src/lib/server/time/clock.ts';
import { startBuiltWeb, type BuiltWeb } from './_built-web.ts';
import { kioskFrame, phonePhoto } from './_upload-photos.ts';

/**
 * The web process's resident memory with the upload face check, through the real built server
 * (build/index.js): RSS when idle after start; idle again after guests uploaded what the kiosk
 * page sends (a 1600×1200 camera frame, capture.ts) — the first upload loads the face detector,
 * which stays; and idle again after 12-megapixel phone selfies. Target: ≤ 200 MB each time.
 * Measured twice: with glibc's default malloc arenas (the baseline) and with MALLOC_ARENA_MAX=2,
 * which `npm start` and the systemd units set.
 *   node --import tsx bench/guest-face-check-memory.ts      (needs `npx vite build` first)
 */
const UPLOADS = 6;
const TARGET_MB = 200;
const SETTLE_MS = 3_000;

/** Resident set of the web process as the kernel counts it (what a memory limit would see). */
function rssMb(pid: number): number {
	const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
	return Number(/(\d+)/.exec(line ?? '')?.[1] ?? NaN) / 1024;
}

/** A session whose guest has chosen an outfit, as the bot leaves it before the selfie. */
async function readySession(db: Db, kioskId: number, userId: number): Promise<string> {
	const started = await startKioskSession({ db, clock: systemClock, timeouts: { qrTimeoutMs: 3_600_000, idleTimeoutMs: 3_600_000 }, slots: 2 }, kioskId);
	if (started.kind !== 'started') throw new Error(started.kind);
	const now = new Date().toISOString();
	await db.user.create({ data: { telegramUserId: BigInt(userId), createdAt: now } });
	await db.session.update({ where: { sessionToken: started.token }, data: { status: 'template_chosen', templateId: 'knight', telegramUserId: BigInt(userId), updatedAt: now } });
	return started.token;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
const verdict = (mb: number) => `${mb.toFixed(0)} MB (target ≤ ${TARGET_MB} MB) ${mb <= TARGET_MB ? '✓' : '✗ over target'}`;

async function uploadAll(server: BuiltWeb, db: Db, kioskId: number, key: string, photo: Buffer, firstUser: number): Promise<{ timings: number[]; peak: number }> {
	const { base, web } = server;
	const timings: number[] = [];
	let peak = 0;
	for (let i = 0; i < UPLOADS; i++) {
		const token = await readySession(db, kioskId, firstUser + i);
		const started = performance.now();
		const response = await fetch(`${base}/api/kiosk/sessions/${token}/photo`, { method: 'POST', headers: { cookie: `kiosk_key=${key}`, origin: base, 'content-type': 'image/jpeg' }, body: new Uint8Array(photo) });
		const answer = await response.text();
		if (response.status !== 201) throw new Error(`upload ${i} answered ${response.status}: ${answer}`);
		timings.push(performance.now() - started);
		peak = Math.max(peak, rssMb(web.pid!));
	}
	return { timings, peak };
}

async function measure(label: string, env: Record<string, string>): Promise<number> {
	const server = startBuiltWeb('face-memory', 4590, { BODY_SIZE_LIMIT: '20M', ...env });
	const web = server.web;
	try {
		await server.ready();
		await settle();
		const idle = rssMb(web.pid!);
		const db = openDatabase(server.dbPath);
		// Two kiosks: one kiosk may upload 10 photos in a burst (kiosk-http.ts uploadLimiter).
		const { key, kiosk } = await createKiosk(db, systemClock, 'bench-frames');
		const phoneKiosk = await createKiosk(db, systemClock, 'bench-phones');
		await rememberBotUsername(db, systemClock, 'bench_kiosk_bot');
		const frame = await kioskFrame();
		const phone = await phonePhoto();
		const kioskRun = await uploadAll(server, db, kiosk.id, key, frame, 9_000_001);
		await settle();
		const afterKiosk = rssMb(web.pid!);
		const phoneRun = await uploadAll(server, db, phoneKiosk.kiosk.id, phoneKiosk.key, phone, 9_100_001);
		await settle();
		const afterPhone = rssMb(web.pid!);
		await db.$disconnect();
		const ms = (xs: number[]) => xs.map((t) => t.toFixed(0)).join(', ');
		console.log(`— ${label}`);
		console.log(`${UPLOADS} kiosk frames (1600×1200, ${(frame.length / 1e3).toFixed(0)} KB): ${ms(kioskRun.timings)} ms (the first loads the detector)`);
		console.log(`${UPLOADS} phone selfies (12 MP, ${(phone.length / 1e6).toFixed(1)} MB): ${ms(phoneRun.timings)} ms`);
		console.log(`web RSS idle after start:                          ${verdict(idle)}`);
		console.log(`web RSS idle, detector loaded, after kiosk frames: ${verdict(afterKiosk)} (peak ${kioskRun.peak.toFixed(0)} MB)`);
		console.log(`web RSS idle, after 12 MP selfies too:             ${verdict(afterPhone)} (peak ${phoneRun.peak.toFixed(0)} MB)`);
		return afterPhone;
	} finally {
		server.stop();
	}
}

// The baseline: glibc's default arena count (unset for the child even if this shell sets it).
delete process.env.MALLOC_ARENA_MAX;
const baseline = await measure('glibc default malloc arenas (baseline)', {});
const product = await measure('MALLOC_ARENA_MAX=2 (npm start, systemd units)', { MALLOC_ARENA_MAX: '2' });
console.log(`RSS after 12 MP selfies: ${product.toFixed(0)} MB vs ${baseline.toFixed(0)} MB baseline, ratio ${(product / baseline).toFixed(2)}×`);
