import { describe, expect, it } from 'vitest';
import { isBotBlocked } from '../../src/lib/server/guests/bot-blocked.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { checkStaffPin } from '../../src/lib/server/kiosk/staff-pin.ts';
import {
	closeKioskSession,
	closeKioskSessions,
	readKioskSessionView,
	startKioskSession
} from '../../src/lib/server/kiosk/kiosk-session.ts';
import { MINUTE, SECOND } from '../../src/lib/server/time/clock.ts';
import { pauseForQuotaDay } from '../../src/lib/server/jobs/queue-pause.ts';
import { sessionTimeoutsPass } from '../../src/worker/tasks/session-timeouts.task.ts';

const HOUR = 60 * MINUTE;
import {
	eventually,
	guestReachesOutfit,
	newGuest,
	sessionRow,
	useGuestWorlds,
	startSession,
	type GuestWorld
} from './guest-harness.ts';

describe('every closed_reason through its real trigger', () => {
	const startWorld = useGuestWorlds('guest-closing-');
	let world: GuestWorld;

	const runTimeouts = () =>
		sessionTimeoutsPass({
			db: world.db,
			clock: world.clock,
			logger: silentLogger,
			config: world.config,
			api: world.bot.api
		})();

	it('qr_timeout: nobody scans for 120 s; the server clock closes it and a late scan is told', async () => {
		world = await startWorld();
		const token = await startSession(world);
		world.clock.advance(119 * SECOND);
		await runTimeouts();
		expect((await sessionRow(world, token)).status).toBe('idle');
		world.clock.advance(1 * SECOND);
		await runTimeouts();
		expect(await sessionRow(world, token)).toMatchObject({ status: 'expired', closedReason: 'qr_timeout' });
		expect((await readKioskSessionView(world.deps, world.kiosk.id, token))?.closedReason).toBe('qr_timeout');
		const guest = await newGuest(world);
		await guest.send(`/start ${token}`);
		await guest.waitFor((m) => /QR code has expired/.test(m.text ?? ''));
		expect((await sessionRow(world, token)).telegramUserId).toBeNull();
	});

	it('qr_timeout is also enforced on read, with no worker running', async () => {
		world = await startWorld();
		const token = await startSession(world);
		world.clock.advance(121 * SECOND);
		const view = await readKioskSessionView(world.deps, world.kiosk.id, token);
		expect([view?.status, view?.closedReason]).toEqual(['expired', 'qr_timeout']);
	});

	it('idle_timeout: a linked guest stalls for 180 s; the session closes and the guest hears it in their language', async () => {
		world = await startWorld();
		const token = await startSession(world);
		const guest = await newGuest(world, 'uz');
		await guest.send(`/start ${token}`);
		const prompt = await guest.waitFor((m) => m.buttons.length > 0);
		world.clock.advance(180 * SECOND);
		await runTimeouts();
		expect(await sessionRow(world, token)).toMatchObject({ status: 'expired', closedReason: 'idle_timeout' });
		await guest.waitFor((m) => /seans vaqti tugadi/.test(m.text ?? ''));
		await guest.press(prompt.message_id, `gc:${token}`);
		await eventually(
			() => guest.messages(),
			(all) => all.filter((m) => /seans vaqti tugadi/.test(m.text ?? '')).length === 2
		);
		expect(
			(await world.db.user.findUniqueOrThrow({ where: { telegramUserId: BigInt(guest.id) } })).consentedAt
		).toBeNull();
	});

	it('idle_timeout to a guest who blocked the bot: the 403 marks the guest, so notices and broadcasts skip them', async () => {
		world = await startWorld();
		const token = await startSession(world);
		const guest = await newGuest(world);
		await guest.send(`/start ${token}`);
		await guest.waitFor((m) => m.buttons.length > 0);
		await world.emulator.control.setBlocked(guest.id, true);
		world.clock.advance(180 * SECOND);
		await runTimeouts();
		expect(await sessionRow(world, token)).toMatchObject({ status: 'expired', closedReason: 'idle_timeout' });
		expect(await isBotBlocked(world.db, BigInt(guest.id))).toBe(true);
		expect((await guest.messages()).filter((m) => /session timed out/i.test(m.text ?? ''))).toEqual([]);
	});

	it('cancel: the guest sends /cancel; a second /cancel has nothing left to cancel', async () => {
		world = await startWorld();
		const token = await startSession(world);
		const guest = await newGuest(world);
		await guestReachesOutfit(world, guest, token);
		await guest.send('/cancel');
		await guest.waitFor((m) => /^Cancelled/.test(m.text ?? ''));
		expect(await sessionRow(world, token)).toMatchObject({ status: 'expired', closedReason: 'cancel' });
		await guest.send('/cancel');
		await guest.waitFor((m) => /nothing to cancel/.test(m.text ?? ''));
	});

	it('staff_reset: the staff PIN (compared as hashes) closes the kiosk’s open session; a wrong PIN changes nothing', async () => {
		world = await startWorld({ KIOSK_STAFF_PIN: '4821' });
		const token = await startSession(world);
		expect(checkStaffPin(world.config.KIOSK_STAFF_PIN, '1111')).toBe(false);
		expect(checkStaffPin(world.config.KIOSK_STAFF_PIN, '48210')).toBe(false);
		expect(checkStaffPin(undefined, '4821')).toBe(false);
		expect((await sessionRow(world, token)).status).toBe('idle');
		expect(checkStaffPin(world.config.KIOSK_STAFF_PIN, '4821')).toBe(true);
		expect(await closeKioskSessions(world.deps, world.kiosk.id, 'staff_reset')).toBe(1);
		expect(await sessionRow(world, token)).toMatchObject({ status: 'expired', closedReason: 'staff_reset' });
	});

	it('camera_error: the kiosk closes its own session; another kiosk cannot close it', async () => {
		world = await startWorld();
		const token = await startSession(world);
		const other = await world.db.kiosk.create({
			data: { name: 'other', keyHash: 'x'.repeat(64), createdAt: world.clock.now().toISOString() }
		});
		expect(await closeKioskSession(world.deps, other.id, token, 'camera_error')).toEqual({ kind: 'not_found' });
		expect(await closeKioskSession(world.deps, world.kiosk.id, token, 'camera_error')).toEqual({ kind: 'closed' });
		expect(await sessionRow(world, token)).toMatchObject({ status: 'expired', closedReason: 'camera_error' });
		expect(await closeKioskSession(world.deps, world.kiosk.id, token, 'camera_error')).toEqual({
			kind: 'already_final',
			status: 'expired'
		});
	});

	it('kiosk_reset: Start (or a reload) with a session open closes the old one; a photo_taken session is never reopened or closed', async () => {
		world = await startWorld();
		const first = await startSession(world);
		const second = await startSession(world);
		expect(await sessionRow(world, first)).toMatchObject({ status: 'expired', closedReason: 'kiosk_reset' });
		expect((await sessionRow(world, second)).status).toBe('idle');
		await world.db.session.update({ where: { sessionToken: second }, data: { status: 'photo_taken' } });
		expect(await closeKioskSessions(world.deps, world.kiosk.id, 'kiosk_reset')).toBe(0);
		expect((await sessionRow(world, second)).status).toBe('photo_taken');
	});

	it('maintenance: Start is refused while paused', async () => {
		world = await startWorld();
		await world.db.setting.create({
			data: { key: 'maintenance', value: JSON.stringify({ source: 'admin', reason: 'test', at: '' }), updatedAt: '' }
		});
		expect(await startKioskSession(world.deps, world.kiosk.id)).toEqual({ kind: 'paused', until: null });
	});

	it('the provider’s day quota: Start is refused until midnight Pacific, saying when; after it, Start works', async () => {
		world = await startWorld();
		const until = new Date(world.clock.now().getTime() + 2 * HOUR);
		await pauseForQuotaDay(world.db, world.clock, until, 'RESOURCE_EXHAUSTED per day');
		expect(await startKioskSession(world.deps, world.kiosk.id)).toEqual({ kind: 'paused', until: until.toISOString() });
		world.clock.advance(2 * HOUR + SECOND);
		expect((await startKioskSession(world.deps, world.kiosk.id)).kind).toBe('started');
	});
});
