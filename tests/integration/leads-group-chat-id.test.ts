import { afterEach, describe, expect, it } from 'vitest';
import { changeSetting } from '../../src/lib/server/settings/runtime-setting-change.ts';
import { RUNTIME_SETTINGS_TTL_MS } from '../../src/lib/server/settings/runtime-settings.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { ADMIN, eventually, GROUP, startBot, startLeadsWorld, STRANGER, type LeadsWorld } from './leads-world.ts';

/**
 * /chat_id in a group (worker/bot/features/leads-group-chat-id.ts): Telegram's apps do not show a group's
 * id, so whoever makes a new sales group adds the bot and asks it for the id the console's Settings
 * page wants — in their own language, with whether cards already come there.
 */
describe('/chat_id in a group', () => {
	const tempDir = useTempDir('leads-chat-id-');
	let world: LeadsWorld;
	let stopBot: (() => Promise<void>) | undefined;
	afterEach(async () => {
		await stopBot?.();
		await world?.close();
	});

	const answerIn = (chatId: number, after: number) =>
		eventually(
			async () => (await world.emulator.control.chatMessages(chatId)).filter((m) => m.from_bot).slice(after),
			(answers) => answers.length > 0,
			// A limit for a hang: the bot's first update (and its first database read) is slow on a busy machine.
			20_000
		).then((answers) => answers[0]!.text);

	it('a new group gets its id and where to paste it; once set, the sales group hears it is the one', async () => {
		world = await startLeadsWorld(tempDir());
		stopBot = (await startBot(world)).stop;
		const desk = await world.emulator.control.createGroup({ title: 'Sales desk' });
		await world.emulator.control.addGroupMember(desk.id, STRANGER.id);
		await world.emulator.control.addGroupMember(desk.id, ADMIN.id);

		await world.emulator.control.sendUserMessage({ user_id: STRANGER.id, chat_id: desk.id, text: '/chat_id' });
		expect(await answerIn(desk.id, 0)).toBe(
			`This group’s chat id is ${desk.id}. To get lead cards here, paste it in the console: Settings → Sales group chat id.`
		);
		// Malika's Telegram is in Russian: her answer is too (the command addressed to the bot by name works as well).
		await world.emulator.control.sendUserMessage({
			user_id: ADMIN.id,
			chat_id: desk.id,
			text: '/chat_id@sticker_kiosk_bot'
		});
		expect(await answerIn(desk.id, 1)).toBe(
			`ID этой группы: ${desk.id}. Чтобы карточки заявок приходили сюда, вставьте его в консоли: Settings → Sales group chat id.`
		);
		// The emulator's sales group is the one in force.
		await world.emulator.control.sendUserMessage({ user_id: STRANGER.id, chat_id: GROUP, text: '/chat_id' });
		expect(await answerIn(GROUP, 0)).toBe(
			`This group’s chat id is ${GROUP}. It is the sales group: lead cards come here.`
		);

		// The owner pastes the new id in Settings; after the settings cache period the bot says so there.
		await changeSetting(world, { name: 'console:owner', ip: null }, 'salesGroupChatId', String(desk.id));
		world.clock.advance(RUNTIME_SETTINGS_TTL_MS + 1);
		await world.emulator.control.sendUserMessage({ user_id: STRANGER.id, chat_id: desk.id, text: '/chat_id' });
		expect(await answerIn(desk.id, 2)).toBe(
			`This group’s chat id is ${desk.id}. It is the sales group: lead cards come here.`
		);
	});

	it('is not answered in a private chat: there is no group id to give', async () => {
		world = await startLeadsWorld(tempDir());
		stopBot = (await startBot(world)).stop;
		await world.emulator.control.sendUserMessage({ user_id: STRANGER.id, text: '/chat_id' });
		await world.emulator.control.sendUserMessage({ user_id: STRANGER.id, text: '/cancel' });
		// The reply to /cancel shows the bot has handled both updates, in order.
		const answers = await eventually(
			async () => (await world.emulator.control.chatMessages(STRANGER.id)).filter((m) => m.from_bot),
			(found) => found.some((m) => (m.text ?? '').includes('nothing to cancel')),
			20_000
		);
		expect(answers.filter((m) => (m.text ?? '').includes('chat id'))).toEqual([]);
	});
});
