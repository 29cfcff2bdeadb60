import { afterEach, describe, expect, it } from 'vitest';
import { watchSnapshots } from '../../src/lib/server/console/change-feed.ts';
import type { Db } from '../../src/lib/server/db/client.ts';
import { findKioskByKey, hashKioskKey } from '../../src/lib/server/kiosk/kiosk-keys.ts';
import { kioskHeartbeat, KIOSK_SEEN_EVERY_MS } from '../../src/lib/server/kiosk/kiosk-presence.ts';
import { kiosksChangeFeed, readKiosksView, type KiosksView } from '../../src/lib/server/kiosk/kiosk-console.ts';
import { recordKioskSession } from '../../src/lib/server/kiosk/kiosk-sessions.repository.ts';
import { readStaffPinSecret } from '../../src/lib/server/kiosk/staff-pin-setting.ts';
import { tryStaffPin } from '../../src/lib/server/kiosk/staff-pin.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { SECOND } from '../../src/lib/server/time/clock.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { startConsoleWorld } from './console-fixtures.ts';

/** The console's Kiosks page procedures: the real router on a real database file, each action audited. */
describe('kiosks in the console', () => {
	const tempDir = useTempDir('kiosks-console-');
	let db: Db;
	afterEach(async () => db?.$disconnect());

	async function setUp() {
		const world = await startConsoleWorld(tempDir());
		db = world.db;
		const as = (who: typeof world.owner) => world.callerFor(who).kiosks;
		return { ...world, as };
	}
	const auditRows = async () =>
		(await db.auditLog.findMany({ orderBy: { id: 'asc' } })).map((a) => ({
			action: a.action,
			actor: a.actor,
			ip: a.ip,
			details: a.details ? JSON.parse(a.details) : null
		}));

	/** An open guest session at this kiosk, as Start makes it. */
	async function openSession(
		kioskId: number,
		token: string,
		status = 'template_chosen',
		now = '2026-06-01T10:00:00.000Z'
	) {
		await db.$transaction(async (tx) => {
			await tx.session.create({ data: { sessionToken: token, status, createdAt: now, updatedAt: now } });
			await recordKioskSession(tx, kioskId, token, now);
		});
	}

	it('adds a kiosk: the key once (only its hash stored) with a pairing link and QR code; names are unique', async () => {
		const { owner, ivan, as } = await setUp();
		const added = await as(ivan).add({ name: '  Hall A ' });
		expect(added.kiosk.name).toBe('Hall A');
		expect(added.key).toMatch(/^kk_[A-Za-z0-9_-]{43}$/);
		expect(added.pairingLink).toBe(`http://localhost:3000/kiosk#pair=${added.key}`);
		expect(added.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
		const row = await db.kiosk.findUniqueOrThrow({ where: { id: added.kiosk.id } });
		expect(row.keyHash).toBe(hashKioskKey(added.key));
		expect(JSON.stringify(await db.kiosk.findMany())).not.toContain(added.key.slice(3));
		expect(JSON.stringify(await as(owner).list())).not.toContain(added.key);

		await expect(as(owner).add({ name: 'Hall A' })).rejects.toThrow(
			'There is already a kiosk named "Hall A": choose another name.'
		);
		await expect(as(owner).add({ name: 'Hall <A>' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
		expect(await auditRows()).toEqual([
			{ action: 'kiosk_add', actor: 'ivan', ip: '10.0.0.7', details: { kioskId: added.kiosk.id, name: 'Hall A' } }
		]);
	});

	it('lists every kiosk: online by its last beat, its live event or the default one, its open session', async () => {
		const { clock, owner, as } = await setUp();
		const hall = (await as(owner).add({ name: 'Hall' })).kiosk;
		const door = (await as(owner).add({ name: 'Door' })).kiosk;
		const event = await db.event.create({
			data: { name: 'Acme party', state: 'live', titleTemplate: '{event}', createdAt: 'x', updatedAt: 'x' }
		});
		await db.eventKiosk.create({ data: { eventId: event.id, kioskId: hall.id, assignedAt: 'x' } });
		await kioskHeartbeat(db, clock, hall.id)();
		await openSession(hall.id, 'a'.repeat(32), 'linked');

		const first = await as(owner).list();
		expect(first.onlineWithinSeconds).toBe(60);
		expect(
			first.kiosks.map((k) => [k.name, k.online, k.event?.name, k.event?.assigned, k.session?.status ?? null])
		).toEqual([
			['Door', false, 'Default event', false, null],
			['Hall', true, 'Acme party', true, 'linked']
		]);
		// A minute and a bit without a beat: offline.
		clock.advance(61 * SECOND);
		expect((await as(owner).list()).kiosks.find((k) => k.id === hall.id)?.online).toBe(false);
		expect(door.name).toBe('Door');
	});

	it('the page’s own feed pushes a new list when a kiosk checks in (its marker SQL reads on either engine)', async () => {
		const { clock, owner, as } = await setUp();
		const { kiosk } = await as(owner).add({ name: 'Hall' });
		const controller = new AbortController();
		const stream = watchSnapshots(kiosksChangeFeed(db, silentLogger), controller.signal, () =>
			readKiosksView(db, clock, undefined)
		);
		const onlineIn = async () => ((await stream.next()).value as KiosksView).kiosks.map((k) => k.online);
		expect(await onlineIn()).toEqual([false]);
		await kioskHeartbeat(db, clock, kiosk.id)();
		expect(await onlineIn()).toEqual([true]);
		controller.abort();
		expect((await stream.next()).done).toBe(true);
	}, 20_000);

	it('the stream heartbeat writes last seen at most every 20 s by the clock', async () => {
		const { clock, owner, as } = await setUp();
		const { kiosk } = await as(owner).add({ name: 'Hall' });
		const beat = kioskHeartbeat(db, clock, kiosk.id);
		const lastSeen = async () => (await db.kiosk.findUniqueOrThrow({ where: { id: kiosk.id } })).lastSeenAt;
		await beat();
		expect(await lastSeen()).toBe('2026-06-01T10:00:00.000Z');
		clock.advance(KIOSK_SEEN_EVERY_MS - SECOND);
		await beat();
		expect(await lastSeen()).toBe('2026-06-01T10:00:00.000Z');
		clock.advance(SECOND);
		await beat();
		expect(await lastSeen()).toBe('2026-06-01T10:00:20.000Z');
	});

	it('renames (unique, clear refusal), resets a stuck kiosk and revokes its key at once; all audited', async () => {
		const { owner, ivan, as } = await setUp();
		const { kiosk, key } = await as(ivan).add({ name: 'Hall' });
		await as(ivan).add({ name: 'Door' });
		expect(await as(ivan).rename({ kioskId: kiosk.id, name: 'Hall B' })).toEqual({ id: kiosk.id, name: 'Hall B' });
		await expect(as(ivan).rename({ kioskId: kiosk.id, name: 'Door' })).rejects.toThrow(
			'There is already a kiosk named "Door": choose another name.'
		);
		await expect(as(ivan).rename({ kioskId: 999, name: 'X' })).rejects.toThrow(
			'Kiosk #999 does not exist: reload the page.'
		);

		await openSession(kiosk.id, 'b'.repeat(32));
		expect(await as(owner).reset({ kioskId: kiosk.id })).toEqual({ closedSessions: 1 });
		expect(await db.session.findUniqueOrThrow({ where: { sessionToken: 'b'.repeat(32) } })).toMatchObject({
			status: 'expired',
			closedReason: 'staff_reset'
		});
		expect(await as(owner).reset({ kioskId: kiosk.id })).toEqual({ closedSessions: 0 });

		await openSession(kiosk.id, 'c'.repeat(32), 'idle');
		expect(await findKioskByKey(db, key)).toMatchObject({ id: kiosk.id });
		expect(await as(owner).revoke({ kioskId: kiosk.id })).toEqual({ closedSessions: 1 });
		expect(await findKioskByKey(db, key)).toBeNull();
		expect((await db.session.findUniqueOrThrow({ where: { sessionToken: 'c'.repeat(32) } })).closedReason).toBe(
			'staff_reset'
		);
		await expect(as(owner).revoke({ kioskId: kiosk.id })).rejects.toThrow(
			'Kiosk "Hall B" is revoked: its key no longer works. Add a new kiosk to pair a tablet again.'
		);
		await expect(as(owner).reset({ kioskId: kiosk.id })).rejects.toThrow('is revoked');
		// The revoked kiosk keeps its name (history names it), listed below the active ones; renaming frees it.
		await expect(as(owner).add({ name: 'Hall B' })).rejects.toThrow(
			'There is already a kiosk named "Hall B" (revoked; rename it to free the name): choose another name.'
		);
		expect((await as(owner).list()).kiosks.map((k) => [k.name, k.revokedAt !== null, k.event])).toEqual([
			['Door', false, expect.anything()],
			['Hall B', true, null]
		]);

		expect((await auditRows()).map((a) => [a.action, a.actor, a.ip, a.details])).toEqual([
			['kiosk_add', 'ivan', '10.0.0.7', { kioskId: kiosk.id, name: 'Hall' }],
			['kiosk_add', 'ivan', '10.0.0.7', expect.objectContaining({ name: 'Door' })],
			['kiosk_rename', 'ivan', '10.0.0.7', { kioskId: kiosk.id, from: 'Hall', to: 'Hall B' }],
			['kiosk_reset', 'olga', '10.0.0.7', { kioskId: kiosk.id, closedSessions: 1 }],
			['kiosk_reset', 'olga', '10.0.0.7', { kioskId: kiosk.id, closedSessions: 0 }],
			['kiosk_revoke', 'olga', '10.0.0.7', { kioskId: kiosk.id, closedSessions: 1 }]
		]);
	});

	it('viewers see the page but every action is refused on the server, and nothing is written', async () => {
		const { owner, vera, as } = await setUp();
		const { kiosk } = await as(owner).add({ name: 'Hall' });
		expect((await as(vera).list()).kiosks.map((k) => k.name)).toEqual(['Hall']);
		const refused = [
			as(vera).add({ name: 'Sneaky' }),
			as(vera).rename({ kioskId: kiosk.id, name: 'Sneaky' }),
			as(vera).reset({ kioskId: kiosk.id }),
			as(vera).revoke({ kioskId: kiosk.id }),
			as(vera).setStaffPin({ pin: '1234' }),
			as(vera).clearStaffPin()
		];
		for (const call of refused) await expect(call).rejects.toMatchObject({ code: 'FORBIDDEN' });
		expect((await db.kiosk.findMany()).map((k) => [k.name, k.revokedAt])).toEqual([['Hall', null]]);
		expect(await db.setting.count({ where: { key: 'kiosk_staff_pin' } })).toBe(0);
		expect((await auditRows()).map((a) => a.action)).toEqual(['kiosk_add']);
	});

	it('the staff PIN: stored as argon2id only, replaces the environment default, clearing turns staff reset off', async () => {
		const { clock, owner, ivan, as } = await setUp();
		const { kiosk } = await as(owner).add({ name: 'Hall' });
		// Before anyone uses the console, KIOSK_STAFF_PIN is the first default.
		expect(await readStaffPinSecret(db, '9999')).toEqual({ kind: 'plain', pin: '9999' });
		expect((await as(owner).list()).staffPin).toEqual({ set: false, source: null, changedAt: null, changedBy: null });
		await expect(as(ivan).setStaffPin({ pin: '12a4' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });

		expect(await as(ivan).setStaffPin({ pin: '4821' })).toEqual({ set: true });
		const stored = (await db.setting.findUniqueOrThrow({ where: { key: 'kiosk_staff_pin' } })).value;
		expect(stored).toMatch(/"hash":"\$argon2id\$/);
		expect(stored).not.toContain('4821');
		expect((await as(owner).list()).staffPin).toEqual({
			set: true,
			source: 'console',
			changedAt: '2026-06-01T10:00:00.000Z',
			changedBy: 'ivan'
		});
		const secret = await readStaffPinSecret(db, '9999');
		expect(secret?.kind).toBe('hash');
		expect(await tryStaffPin(db, clock, kiosk.id, secret!, '9999')).toEqual({ ok: false, reason: 'wrong' });
		expect(await tryStaffPin(db, clock, kiosk.id, secret!, '4821')).toEqual({ ok: true });

		expect(await as(owner).clearStaffPin()).toEqual({ set: false });
		expect(await readStaffPinSecret(db, '9999')).toBeNull();
		expect((await as(owner).list()).staffPin).toMatchObject({ set: false, source: null, changedBy: 'olga' });
		expect((await auditRows()).map((a) => [a.action, a.actor, a.ip])).toEqual([
			['kiosk_add', 'olga', '10.0.0.7'],
			['staff_pin_set', 'ivan', '10.0.0.7'],
			['staff_pin_clear', 'olga', '10.0.0.7']
		]);
	});
});
