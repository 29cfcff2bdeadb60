import { afterEach, describe, expect, it } from 'vitest';
import { giveConsent } from '../../src/lib/server/guests/guest-steps.ts';
import { linkGuest } from '../../src/lib/server/guests/guest-link.ts';
import { expireOverdueSessions } from '../../src/lib/server/guests/session-timeouts.ts';
import { takePhotoAndEnqueue } from '../../src/lib/server/guests/take-photo.ts';
import { createKiosk } from '../../src/lib/server/kiosk/kiosk-keys.ts';
import { startKioskSession } from '../../src/lib/server/kiosk/kiosk-session.ts';
import { uploadSelfie } from '../../src/lib/server/kiosk/photo-upload.ts';
import { FakeClock, SECOND } from '../../src/lib/server/time/clock.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { sessionRow, startGuestWorld, startSession, uploadDeps, type GuestWorld } from './guest-harness.ts';
import { selfieJpeg, streamOf } from './guest-photos.ts';

/**
 * Two actors on the same session at the same moment. They share one client here: better-sqlite3
 * waits for a lock synchronously, so two connections in one Node process would block each other's
 * event loop (web and worker are separate processes in production). The client runs each
 * transaction alone but interleaves the sweep's separate statements with it — the interleaving the
 * conditional updates must survive — so exactly one actor can win.
 */
describe('races on one session', () => {
	const tempDir = useTempDir('guest-race-');
	let world: GuestWorld;
	afterEach(async () => world?.close());

	async function linkedSession(userId: bigint): Promise<string> {
		const token = await startSession(world);
		const linked = await linkGuest(world.deps, token, { telegramUserId: userId, firstName: 'Racer' });
		expect(linked.kind).toBe('linked');
		return token;
	}

	it('kiosk timeout vs. guest consent at the deadline: exactly one wins, 20 times over, and the loser gets a clear answer', async () => {
		world = await startGuestWorld(tempDir());
		const results = { consent: 0, timeout: 0 };
		for (let round = 0; round < 20; round++) {
			const userId = BigInt(9_000_000 + round);
			const token = await linkedSession(userId);
			const linkedAt = world.clock.now().getTime();
			// The guest's tap is read a moment before the deadline, the sweep a moment after it.
			const guestClock = new FakeClock(new Date(linkedAt + 180 * SECOND - 1));
			const sweepClock = new FakeClock(new Date(linkedAt + 180 * SECOND + (round % 3)));
			const [consent, expired] = await Promise.all([
				giveConsent({ db: world.db, clock: guestClock, timeouts: world.deps.timeouts }, token, userId),
				expireOverdueSessions({ db: world.db, clock: sweepClock, timeouts: world.deps.timeouts })
			]);
			const row = await sessionRow(world, token);
			const closedHere = expired.some((e) => e.sessionToken === token);
			expect(consent.kind === 'done').not.toBe(closedHere);
			if (consent.kind === 'done') {
				results.consent += 1;
				expect(row.status).toBe('consented');
			} else {
				results.timeout += 1;
				expect(consent).toEqual({ kind: 'closed', reason: 'idle_timeout', notice: null });
				expect(row).toMatchObject({ status: 'expired', closedReason: 'idle_timeout' });
			}
		}
		expect(results.consent + results.timeout).toBe(20);
	});

	it('two guests scanning the same QR at once: one links, the other is told the code is taken', async () => {
		world = await startGuestWorld(tempDir());
		const token = await startSession(world);
		const [a, b] = await Promise.all([
			linkGuest(world.deps, token, { telegramUserId: 1001n, firstName: 'A' }),
			linkGuest(world.deps, token, { telegramUserId: 1002n, firstName: 'B' })
		]);
		expect([a.kind, b.kind].sort()).toEqual(['linked', 'taken']);
		const row = await sessionRow(world, token);
		expect(row.telegramUserId).toBe(a.kind === 'linked' ? 1001n : 1002n);
	});

	it('two take_photo_and_enqueue transactions at once: one job, the other answered already_taken', async () => {
		world = await startGuestWorld(tempDir());
		const token = await linkedSession(2001n);
		await world.db.session.update({
			where: { sessionToken: token },
			data: { status: 'template_chosen', templateId: 'chef' }
		});
		const [a, b] = await Promise.all([
			takePhotoAndEnqueue(world.deps, token, '/data/a.jpg'),
			takePhotoAndEnqueue(world.deps, token, '/data/b.jpg')
		]);
		expect([a.kind, b.kind].sort()).toEqual(['already_taken', 'enqueued']);
		expect(await world.db.job.count({ where: { sessionToken: token } })).toBe(1);
	});

	it('one guest photographed at two kiosks at once (both sessions linked before either photo): one job, the other closed as pack_in_progress', async () => {
		world = await startGuestWorld(tempDir());
		const { kiosk: other } = await createKiosk(world.db, world.clock, 'second-kiosk');
		for (let round = 0; round < 5; round++) {
			const userId = BigInt(3001 + round);
			const first = await linkedSession(userId);
			const started = await startKioskSession(world.deps, other.id);
			if (started.kind !== 'started') throw new Error(started.kind);
			expect((await linkGuest(world.deps, started.token, { telegramUserId: userId, firstName: 'Racer' })).kind).toBe(
				'linked'
			);
			for (const token of [first, started.token])
				await world.db.session.update({
					where: { sessionToken: token },
					data: { status: 'template_chosen', templateId: 'chef' }
				});
			const outcomes = await Promise.all(
				[first, started.token].map((token) => takePhotoAndEnqueue(world.deps, token, `/data/${token}.jpg`))
			);
			expect(outcomes.map((o) => (o.kind === 'closed' ? `closed ${o.notice}` : o.kind)).sort()).toEqual([
				'closed pack_in_progress',
				'enqueued'
			]);
			expect(await world.db.job.count({ where: { telegramUserId: userId } })).toBe(1);
		}
	});

	it('two uploads at once through the upload service: one job, one selfie on disk', async () => {
		world = await startGuestWorld(tempDir());
		const token = await linkedSession(3001n);
		await world.db.session.update({
			where: { sessionToken: token },
			data: { status: 'template_chosen', templateId: 'chef' }
		});
		const deps = uploadDeps(world);
		const photo = await selfieJpeg();
		const outcomes = await Promise.all(
			[0, 1, 2].map(() => uploadSelfie(deps, world.kiosk.id, token, streamOf(photo), null))
		);
		expect(outcomes.filter((o) => o.kind === 'enqueued')).toHaveLength(1);
		expect(outcomes.filter((o) => o.kind !== 'enqueued').every((o) => ['busy', 'already_taken'].includes(o.kind))).toBe(
			true
		);
		expect(await world.db.job.count({ where: { sessionToken: token } })).toBe(1);
		const { readdirSync } = await import('node:fs');
		const files = readdirSync(`${world.dir}/sessions/${token}`).sort();
		expect(files.filter((f) => f.startsWith('selfie_'))).toHaveLength(1);
		expect(files).toContain('face_crop.jpg');
		expect(files.some((f) => f.endsWith('.tmp'))).toBe(false);
	});
});
