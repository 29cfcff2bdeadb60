import { utimes } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/lib/server/db/client.ts';
import { createKiosk } from '../../src/lib/server/kiosk/kiosk-keys.ts';
import {
	listReadyStickers,
	READY_WINDOW_MS,
	readReadySticker,
	type ReadyPackDeps
} from '../../src/lib/server/kiosk/kiosk-ready-pack.ts';
import { recordKioskSession } from '../../src/lib/server/kiosk/kiosk-sessions.repository.ts';
import { FakeClock, HOUR } from '../../src/lib/server/time/clock.ts';
import { localFileStore } from '../helpers/file-store.ts';
import { useTestDb } from '../helpers/test-db.ts';

/**
 * The "your pack is ready" moment serves drawings of a guest's face to a public screen, so its
 * rule is narrow (kiosk/kiosk-ready-pack.ts): the kiosk's own latest session, its job done, within
 * a minute of the link, never a file past the TTL. Each case below is one way it must say no.
 */
let nextUser = 910_000n;

async function guestWithPack(db: Db, clock: FakeClock, kioskId: number, status = 'done'): Promise<string> {
	const user = nextUser++;
	const token = `ready${user}`.padEnd(32, 'r');
	const now = clock.now().toISOString();
	await db.user.create({ data: { telegramUserId: user, consentedAt: now, createdAt: now } });
	await db.$transaction(async (tx) => {
		await tx.session.create({
			data: {
				sessionToken: token,
				status: 'photo_taken',
				telegramUserId: user,
				templateId: 'chef',
				createdAt: now,
				updatedAt: now
			}
		});
		await recordKioskSession(tx, kioskId, token, now);
		await tx.job.create({
			data: {
				telegramUserId: user,
				sessionToken: token,
				photoPath: `sessions/${token}/selfie.jpg`,
				templateId: 'chef',
				status,
				linkSentAt: status === 'done' ? now : null,
				createdAt: now,
				updatedAt: now
			}
		});
	});
	return token;
}

async function storeStickers(deps: ReadyPackDeps, token: string, names: string[]): Promise<void> {
	for (const name of names) await deps.files.put(`sessions/${token}/stickers/${name}`, Buffer.from(name));
}

describe('the ready pack on the kiosk', () => {
	const testDb = useTestDb('kiosk-ready-pack-');

	async function world() {
		const { db, dir } = await testDb();
		// Files carry real modification times: the clock starts at the real now.
		const clock = new FakeClock(new Date());
		const deps: ReadyPackDeps = { db, clock, files: localFileStore(dir), ttlHours: 1 };
		const hall = (await createKiosk(db, clock, 'hall')).kiosk;
		const lobby = (await createKiosk(db, clock, 'lobby')).kiosk;
		return { db, dir, clock, deps, hall, lobby };
	}

	it('lists the 12 stickers in pack order, an animated .webm in place of its still, and serves each with its type', async () => {
		const { db, clock, deps, hall } = await world();
		const token = await guestWithPack(db, clock, hall.id);
		const names = Array.from({ length: 12 }, (_, i) => `sticker_${i + 1}.png`);
		await storeStickers(deps, token, [...names, 'sticker_3.webm', 'notes.txt', 'sticker_13.png']);

		const stickers = await listReadyStickers(deps, hall.id, token);
		expect(stickers?.map((s) => s.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
		expect(stickers?.[2]).toEqual({
			number: 3,
			kind: 'video',
			url: `/api/kiosk/sessions/${token}/stickers/sticker_3.webm`
		});
		expect(stickers?.[0]).toMatchObject({ kind: 'image', url: `/api/kiosk/sessions/${token}/stickers/sticker_1.png` });

		expect(await readReadySticker(deps, hall.id, token, 'sticker_3.webm')).toEqual({
			bytes: Buffer.from('sticker_3.webm'),
			contentType: 'video/webm'
		});
		expect((await readReadySticker(deps, hall.id, token, 'sticker_1.png'))?.contentType).toBe('image/png');
		// Only sticker files: never the selfie or anything else in the session's folder.
		await deps.files.put(`sessions/${token}/selfie.jpg`, Buffer.from('face'));
		for (const name of ['../selfie.jpg', 'selfie.jpg', 'sticker_13.png', 'notes.txt', 'sticker_1.jpg'])
			expect(await readReadySticker(deps, hall.id, token, name)).toBeNull();
	});

	it('says no to another kiosk, and to this kiosk once it has started the next guest', async () => {
		const { db, clock, deps, hall, lobby } = await world();
		const token = await guestWithPack(db, clock, hall.id);
		await storeStickers(deps, token, ['sticker_1.png']);
		expect(await listReadyStickers(deps, lobby.id, token)).toBeNull();
		expect(await readReadySticker(deps, lobby.id, token, 'sticker_1.png')).toBeNull();

		clock.advance(1_000);
		await db.$transaction((tx) =>
			recordKioskSession(tx, hall.id, 'next-guest'.padEnd(32, 'n'), clock.now().toISOString())
		);
		expect(await listReadyStickers(deps, hall.id, token)).toBeNull();
		expect(await readReadySticker(deps, hall.id, token, 'sticker_1.png')).toBeNull();
	});

	it('says no before the link is sent, and from a minute after it', async () => {
		const { db, clock, deps, hall } = await world();
		const drawing = await guestWithPack(db, clock, hall.id, 'delivering');
		await storeStickers(deps, drawing, ['sticker_1.png']);
		expect(await listReadyStickers(deps, hall.id, drawing)).toBeNull();

		const token = await guestWithPack(db, clock, hall.id);
		await storeStickers(deps, token, ['sticker_1.png']);
		clock.advance(READY_WINDOW_MS);
		expect(await listReadyStickers(deps, hall.id, token)).toHaveLength(1);
		clock.advance(1);
		expect(await listReadyStickers(deps, hall.id, token)).toBeNull();
		expect(await readReadySticker(deps, hall.id, token, 'sticker_1.png')).toBeNull();
	});

	it('never serves a file older than the file TTL, even before the sweep deletes it', async () => {
		const { db, dir, clock, deps, hall } = await world();
		const token = await guestWithPack(db, clock, hall.id);
		await storeStickers(deps, token, ['sticker_1.png', 'sticker_2.png']);
		const old = new Date(clock.now().getTime() - deps.ttlHours * HOUR - 1_000);
		await utimes(path.join(dir, 'sessions', token, 'stickers', 'sticker_2.png'), old, old);

		expect((await listReadyStickers(deps, hall.id, token))?.map((s) => s.number)).toEqual([1]);
		expect(await readReadySticker(deps, hall.id, token, 'sticker_2.png')).toBeNull();
	});

	it('finds nothing once the guest is forgotten (job and files gone)', async () => {
		const { db, clock, deps, hall } = await world();
		const token = await guestWithPack(db, clock, hall.id);
		await storeStickers(deps, token, ['sticker_1.png']);
		await db.job.deleteMany({ where: { sessionToken: token } });
		expect(await listReadyStickers(deps, hall.id, token)).toBeNull();
	});
});
