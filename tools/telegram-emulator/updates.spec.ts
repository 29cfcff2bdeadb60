import { GrammyError, type Api } from 'grammy';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TelegramEmulator } from './server.ts';
import { botFor, startedUser, startEmulator, startPolling, waitFor } from './test-support.ts';

let emulator: TelegramEmulator;
let api: Api;

beforeEach(async () => {
	emulator = await startEmulator({ adminIds: [501, 502] });
	api = botFor(emulator).api;
});

afterEach(async () => {
	await emulator.close();
});

describe('getUpdates', () => {
	it('keeps updates until an offset confirms them', async () => {
		const chatId = await startedUser(emulator);
		await emulator.control.sendUserMessage({ user_id: chatId, text: 'second' });
		const first = await api.getUpdates();
		expect(first.map((update) => update.message?.text)).toEqual(['/start', 'second']);
		expect(await api.getUpdates()).toHaveLength(2);
		const lastId = first.at(-1)?.update_id ?? 0;
		expect(await api.getUpdates({ offset: lastId + 1 })).toEqual([]);
		expect((await emulator.control.updates()).history.map((update) => update.update_id)).toEqual(
			first.map((update) => update.update_id)
		);
	});

	it('delivers a replayed update again with the same update_id', async () => {
		const chatId = await startedUser(emulator);
		const [delivered] = await api.getUpdates();
		const id = delivered?.update_id ?? 0;
		expect(await api.getUpdates({ offset: id + 1 })).toEqual([]);

		await emulator.control.replayUpdate(id);
		const again = await api.getUpdates({ offset: id + 1 });
		expect(again).toEqual([delivered]);
		// Delivered once: the next offset confirms it, and new updates keep coming.
		await emulator.control.sendUserMessage({ user_id: chatId, text: 'after replay' });
		const next = await api.getUpdates({ offset: id + 1 });
		expect(next.map((update) => update.message?.text)).toEqual(['after replay']);
	});

	it('gives a replayed update to a running grammY bot twice', async () => {
		const bot = botFor(emulator);
		const seen: number[] = [];
		bot.on('message', (ctx) => void seen.push(ctx.update.update_id));
		const polling = await startPolling(bot);
		try {
			const { update_id } = await emulator.control.sendUserMessage({ user: { first_name: 'Ann' }, text: 'hi' });
			await waitFor(() => seen.length === 1);
			await emulator.control.replayUpdate(update_id ?? 0);
			await waitFor(() => seen.length === 2);
			expect(seen).toEqual([update_id, update_id]);
		} finally {
			await polling.stop();
		}
	});

	it('ends an older waiting poll with 409 when a newer one arrives', async () => {
		const older = api.getUpdates({ timeout: 10 }).catch((error: unknown) => error);
		await new Promise((resolve) => setTimeout(resolve, 50));
		const newer = api.getUpdates({ timeout: 0 });
		const error = await older;
		expect(error).toBeInstanceOf(GrammyError);
		expect((error as GrammyError).error_code).toBe(409);
		await expect(newer).resolves.toEqual([]);
	});

	it('refuses getUpdates while a webhook is set', async () => {
		await api.setWebhook('https://example.com/hook');
		const error = await api.getUpdates().catch((caught: unknown) => caught);
		expect((error as GrammyError).error_code).toBe(409);
		await api.deleteWebhook();
		await expect(api.getUpdates()).resolves.toEqual([]);
	});
});

describe("BotFather's /revoke", () => {
	it('gives the same bot a new token: the old one answers 401, the new one gets the waiting updates', async () => {
		const chatId = await startedUser(emulator);
		const before = await api.getMe();
		const { token } = await emulator.control.revokeBotToken(before.username);
		expect(token).toMatch(new RegExp(`^${before.id}:[\\w-]{30,}$`));

		const old = await api.getMe().catch((error: unknown) => error);
		expect(old).toBeInstanceOf(GrammyError);
		expect((old as GrammyError).error_code).toBe(401);
		const renewed = botFor(emulator, token).api;
		expect(await renewed.getMe()).toEqual(before);
		expect((await renewed.getUpdates()).map((update) => update.message?.chat.id)).toEqual([chatId]);
		expect((await emulator.control.bots()).map((bot) => bot.username)).toEqual([before.username]);
	});

	it('refuses a bot no token has claimed yet', async () => {
		const fresh = await startEmulator();
		try {
			const refused = await fresh.control.revokeBotToken('sticker_kiosk_bot').catch((error: unknown) => error);
			expect(refused).toMatchObject({ status: 409 });
		} finally {
			await fresh.close();
		}
	});
});

describe('the sales group', () => {
	it('delivers commands, replies and button presses but not chatter (privacy mode)', async () => {
		const groupId = (await emulator.control.config()).sales_group.id;
		await emulator.control.sendUserMessage({ user_id: 501, chat_id: groupId, text: 'good morning all' });
		await emulator.control.sendUserMessage({ user_id: 501, chat_id: groupId, text: '/leads' });
		const card = await api.sendMessage(groupId, 'New lead: Ann', {
			reply_markup: { inline_keyboard: [[{ text: 'Take', callback_data: 'take:1' }]] }
		});
		await emulator.control.sendUserMessage({
			user_id: 502,
			chat_id: groupId,
			text: 'mine',
			reply_to_message_id: card.message_id
		});
		await emulator.control.pressButton({
			user_id: 502,
			chat_id: groupId,
			message_id: card.message_id,
			callback_data: 'take:1'
		});
		const updates = await api.getUpdates();
		expect(updates.map((update) => update.message?.text ?? update.callback_query?.data)).toEqual([
			'/leads',
			'mine',
			'take:1'
		]);
		expect((await emulator.control.chatMessages(groupId)).map((message) => message.text)).toEqual([
			'good morning all',
			'/leads',
			'New lead: Ann',
			'mine'
		]);
	});

	it('a second group made through the control API takes messages like the first', async () => {
		const salesId = (await emulator.control.config()).sales_group.id;
		const desk = await emulator.control.createGroup({ title: 'Sales desk' });
		expect(desk.id).toBeLessThan(salesId);
		const sent = await api.sendMessage(desk.id, 'New lead: Bo');
		expect(sent.chat).toEqual({ id: desk.id, type: 'supergroup', title: 'Sales desk' });
		await emulator.control.addGroupMember(desk.id, 501);
		await emulator.control.sendUserMessage({ user_id: 501, chat_id: desk.id, text: '/leads' });
		expect((await emulator.control.chatMessages(desk.id)).map((message) => message.text)).toEqual([
			'New lead: Bo',
			'/leads'
		]);
		expect(await emulator.control.chatMessages(salesId)).toEqual([]);
		// Ids are unique across chats: a taken one is refused.
		await expect(emulator.control.createGroup({ id: desk.id, title: 'Again' })).rejects.toMatchObject({ status: 409 });
		expect((await emulator.control.createGroup({ title: 'Third' })).id).toBeLessThan(desk.id);
	});

	it('refuses presses of buttons that are not on the message', async () => {
		const chatId = await startedUser(emulator);
		const sent = await api.sendMessage(chatId, 'Pick', {
			reply_markup: { inline_keyboard: [[{ text: 'A', callback_data: 'a' }]] }
		});
		await expect(
			emulator.control.pressButton({ user_id: chatId, message_id: sent.message_id, callback_data: 'b' })
		).rejects.toMatchObject({ status: 400 });
	});
});
