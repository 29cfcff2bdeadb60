import { afterEach, describe, expect, it } from 'vitest';
import { useTempDir } from '../helpers/temp-dir.ts';
import {
	eventually,
	newGuest,
	sessionRow,
	startGuestWorld,
	startSession,
	type Guest,
	type GuestWorld
} from './guest-harness.ts';

describe('the pack limit: one pack per guest plus extra_packs_allowed', () => {
	const tempDir = useTempDir('guest-pack-');
	let world: GuestWorld;
	afterEach(async () => world?.close());

	async function addJob(guest: Guest, status: string): Promise<void> {
		const now = world.clock.now().toISOString();
		await world.db.user.upsert({
			where: { telegramUserId: BigInt(guest.id) },
			create: { telegramUserId: BigInt(guest.id), createdAt: now, consentedAt: now },
			update: {}
		});
		await world.db.job.create({
			data: {
				telegramUserId: BigInt(guest.id),
				sessionToken: `old-${status}-${Math.random()}`,
				photoPath: '/gone.jpg',
				templateId: 'chef',
				status,
				createdAt: now,
				updatedAt: now
			}
		});
	}

	it('a guest whose pack is still being made is told so, and the session closes with notice pack_in_progress', async () => {
		world = await startGuestWorld(tempDir());
		const guest = await newGuest(world);
		await addJob(guest, 'processing');
		const token = await startSession(world);
		await guest.send(`/start ${token}`);
		await guest.waitFor((m) => /still being made/.test(m.text ?? ''));
		expect(await sessionRow(world, token)).toMatchObject({
			status: 'expired',
			notice: 'pack_in_progress',
			telegramUserId: BigInt(guest.id)
		});
	});

	it('a guest with a done pack gets the existing link again (built from users.pack_name) and no new session', async () => {
		world = await startGuestWorld(tempDir());
		const guest = await newGuest(world);
		await addJob(guest, 'done');
		await addJob(guest, 'failed'); // failed jobs never count
		await world.db.user.update({
			where: { telegramUserId: BigInt(guest.id) },
			data: { packName: 'kiosk_5000001_1_by_sticker_kiosk_bot', packLink: 'https://stale.example/wrong' }
		});
		const token = await startSession(world);
		await guest.send(`/start ${token}`);
		const reply = await guest.waitFor((m) => /already have your sticker pack/.test(m.text ?? ''));
		expect(reply.text).toContain('https://t.me/addstickers/kiosk_5000001_1_by_sticker_kiosk_bot');
		expect(reply.text).not.toContain('stale.example');
		expect(await sessionRow(world, token)).toMatchObject({ status: 'expired', notice: 'pack_ready' });
	});

	it('extra_packs_allowed raises the limit: one more pack is allowed, then the limit holds again', async () => {
		world = await startGuestWorld(tempDir());
		const guest = await newGuest(world);
		await addJob(guest, 'done');
		await world.db.user.update({
			where: { telegramUserId: BigInt(guest.id) },
			data: { extraPacksAllowed: 1, packName: 'p_by_sticker_kiosk_bot' }
		});
		const allowed = await startSession(world);
		await guest.send(`/start ${allowed}`);
		await eventually(
			() => sessionRow(world, allowed),
			(s) => s.status === 'consented'
		);

		await addJob(guest, 'done');
		await world.db.session.update({
			where: { sessionToken: allowed },
			data: { status: 'expired', closedReason: 'cancel' }
		});
		const refused = await startSession(world);
		await guest.send(`/start ${refused}`);
		await eventually(
			() => sessionRow(world, refused),
			(s) => s.status === 'expired'
		);
		expect((await sessionRow(world, refused)).notice).toBe('pack_ready');
	});

	it('a guest with only failed jobs may make a pack', async () => {
		world = await startGuestWorld(tempDir());
		const guest = await newGuest(world);
		await addJob(guest, 'failed');
		const token = await startSession(world);
		await guest.send(`/start ${token}`);
		await eventually(
			() => sessionRow(world, token),
			(s) => s.status === 'consented'
		);
	});
});
