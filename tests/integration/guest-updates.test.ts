import { afterEach, describe, expect, it } from 'vitest';
import type { BotContext } from '../../src/worker/bot/context.ts';
import { oncePerUpdate } from '../../src/worker/bot/once-per-update.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import {
	eventually,
	newGuest,
	sessionRow,
	startGuestWorld,
	startSession,
	updatesHandled,
	type GuestWorld
} from './guest-harness.ts';

/** The same update delivered twice has one effect; and the bot's answers to /start payloads that lead nowhere. */
describe('guest updates: duplicates and bad /start payloads', () => {
	const tempDir = useTempDir('guest-updates-');
	let world: GuestWorld;
	afterEach(async () => world?.close());

	it('the same /start and the same button press delivered twice (emulator replay) have one effect each', async () => {
		world = await startGuestWorld(tempDir());
		const token = await startSession(world);
		const guest = await newGuest(world);
		const startUpdate = await guest.send(`/start ${token}`);
		const prompt = await guest.waitFor((m) => m.buttons.length > 0);
		await world.emulator.control.replayUpdate(startUpdate);
		const pressUpdate = await guest.press(prompt.message_id, `gc:${token}`);
		await guest.waitFor((m) => m.photo !== undefined);
		await world.emulator.control.replayUpdate(pressUpdate);
		await updatesHandled(world);
		const botMessages = (await guest.messages()).filter((m) => m.from_bot);
		expect(botMessages.filter((m) => /privacy/.test(m.text ?? ''))).toHaveLength(1);
		expect(botMessages.filter((m) => m.photo)).toHaveLength(1);
		expect((await sessionRow(world, token)).status).toBe('consented');
		const history = (await world.emulator.control.updates()).history.map((u) => u.update_id);
		expect(
			history.filter((id) => id === startUpdate).length + history.filter((id) => id === pressUpdate).length
		).toBeGreaterThanOrEqual(2);
	});

	it('an update is recorded as handled only when its handler finished: one cut off is handled in full when it comes again', async () => {
		world = await startGuestWorld(tempDir());
		const ctx = {
			deps: { db: world.db, clock: world.clock },
			me: { id: 1000000001 },
			update: { update_id: 990_001 }
		} as unknown as BotContext;
		await expect(
			oncePerUpdate(ctx, async () => {
				throw new Error('the worker died before its reply');
			})
		).rejects.toThrow();
		const runs: string[] = [];
		await oncePerUpdate(ctx, async () => void runs.push('delivered again'));
		await oncePerUpdate(ctx, async () => void runs.push('a duplicate'));
		expect(runs).toEqual(['delivered again']);
		// Update ids are per bot: another bot's update 990001 (a token replaced by another bot's) is its own.
		const otherBot = { ...ctx, me: { id: 2000000002 } } as unknown as BotContext;
		await oncePerUpdate(otherBot, async () => void runs.push('the other bot'));
		expect(runs).toEqual(['delivered again', 'the other bot']);
	});

	it('a press handled again after a worker died before recording it (it had answered) still brings the catalogue', async () => {
		world = await startGuestWorld(tempDir());
		const token = await startSession(world);
		const guest = await newGuest(world);
		await guest.send(`/start ${token}`);
		const prompt = await guest.waitFor((m) => m.buttons.length > 0);
		const pressUpdate = await guest.press(prompt.message_id, `gc:${token}`);
		await guest.waitFor((m) => m.photo !== undefined);
		// What a worker killed after its replies but before the records leaves: an answered query, no
		// record of the guest step, the update still waiting in the bot's inbox.
		await updatesHandled(world);
		await world.runner.stop();
		const update = (await world.emulator.control.updates()).history.find((u) => u.update_id === pressUpdate);
		await world.db.processedUpdate.deleteMany({ where: { updateId: BigInt(pressUpdate) } });
		await world.db.botUpdate.update({
			where: { botId_updateId: { botId: BigInt(world.bot.botInfo.id), updateId: BigInt(pressUpdate) } },
			data: { handledAt: null, payload: JSON.stringify(update), chatKey: `chat:${guest.id}` }
		});

		// The restarted poller handles it again: the press is answered a second time — which Telegram refuses — and goes on.
		world.runner.start();
		await eventually(
			() => guest.messages(),
			(all) => all.filter((m) => m.from_bot && m.photo).length === 2
		);
		expect((await guest.messages()).filter((m) => /went wrong/.test(m.text ?? ''))).toEqual([]);
	});

	it('a bare /start explains how to begin; unknown, malformed and used tokens get a clear sentence and change nothing', async () => {
		world = await startGuestWorld(tempDir());
		const guest = await newGuest(world);
		await guest.send('/start');
		await guest.waitFor((m) => /tap Start on the sticker kiosk/.test(m.text ?? ''));
		await guest.send('/start AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
		await guest.waitFor((m) => /code is not valid/.test(m.text ?? ''));
		await guest.send('/start not-a-token');
		await eventually(
			() => guest.messages(),
			(all) => all.filter((m) => /code is not valid/.test(m.text ?? '')).length === 2
		);

		const used = await startSession(world);
		await world.db.session.update({
			where: { sessionToken: used },
			data: { status: 'photo_taken', telegramUserId: BigInt(guest.id) }
		});
		await guest.send(`/start ${used}`);
		await guest.waitFor((m) => /already taken/.test(m.text ?? ''));
		expect((await sessionRow(world, used)).status).toBe('photo_taken');
		expect(await world.db.session.count({ where: { status: { not: 'photo_taken' } } })).toBe(0);
	});

	it('a second guest scanning a QR that is already linked is told so and the first guest keeps it', async () => {
		world = await startGuestWorld(tempDir());
		const token = await startSession(world);
		const first = await newGuest(world, 'en', 'First');
		const second = await newGuest(world, 'ru', 'Second');
		await first.send(`/start ${token}`);
		await first.waitFor((m) => m.buttons.length > 0);
		await second.send(`/start ${token}`);
		await second.waitFor((m) => /уже использует другой гость/.test(m.text ?? ''));
		const row = await sessionRow(world, token);
		expect([row.status, row.telegramUserId]).toEqual(['linked', BigInt(first.id)]);
		expect(await world.db.user.findUnique({ where: { telegramUserId: BigInt(second.id) } })).not.toBeNull();
	});

	it('a forged callback with a malformed token or unknown outfit is answered and changes nothing', async () => {
		world = await startGuestWorld(tempDir());
		const token = await startSession(world);
		const guest = await newGuest(world);
		await guest.send(`/start ${token}`);
		const prompt = await guest.waitFor((m) => m.buttons.length > 0);
		await guest.press(prompt.message_id, `gc:${token}`);
		await eventually(
			() => sessionRow(world, token),
			(s) => s.status === 'consented'
		);
		// The emulator only lets a user press buttons a message really has, so forged data goes in as an update from the bot's side.
		await world.bot
			.handleUpdate({
				update_id: 99_999_001,
				callback_query: {
					id: 'forged',
					from: { id: guest.id, is_bot: false, first_name: 'X' },
					chat_instance: '1',
					data: `go:dragon:${token}`
				}
			})
			.catch(() => undefined); // answering an unknown query id fails at the emulator, as at Telegram
		await world.bot
			.handleUpdate({
				update_id: 99_999_002,
				callback_query: {
					id: 'forged2',
					from: { id: guest.id, is_bot: false, first_name: 'X' },
					chat_instance: '1',
					data: 'gc:../../etc/passwd'
				}
			})
			.catch(() => undefined);
		expect((await sessionRow(world, token)).status).toBe('consented');
	});
});
