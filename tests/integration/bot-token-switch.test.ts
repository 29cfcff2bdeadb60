import { afterEach, describe, expect, it } from 'vitest';
import { readBotUsername } from '../../src/lib/server/guests/bot-identity.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { readBotTokenRefusal } from '../../src/lib/server/settings/bot-token-refusal.ts';
import { MINUTE } from '../../src/lib/server/time/clock.ts';
import { botTokenToStartWith } from '../../src/worker/bot/bot-token-switch.ts';
import { createTelegramEmulator, type TelegramEmulator } from '../../tools/telegram-emulator/server.ts';
import { useTestDb } from '../helpers/test-db.ts';
import { ADMIN_ID, startWorker, TOKEN_A, TOKEN_B, WRONG_TOKEN } from '../helpers/token-switch-world.ts';

describe('a bot token replaced on the console is taken without a restart', () => {
	const testDb = useTestDb('bot-token-switch-');
	const cleanups: (() => Promise<void>)[] = [];
	afterEach(async () => {
		for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
	});

	async function setUp() {
		const emulator = await createTelegramEmulator({ botToken: TOKEN_A, botUsername: 'kiosk_a_bot' });
		cleanups.push(() => emulator.close());
		const worker = await startWorker(testDb, emulator);
		cleanups.push(() => worker.keeper.stop());
		await worker.keeper.tick();
		return { emulator, worker };
	}

	/** A new guest writes `/start <not a kiosk token>` to a bot: a guest step, answered once per update. */
	async function guestWrites(emulator: TelegramEmulator, name: string, bot?: string) {
		const user = await emulator.control.createUser({ first_name: name, language_code: 'en' });
		const sent = await emulator.control.sendUserMessage({ user_id: user.id, text: '/start not-a-kiosk-token', bot });
		return { userId: user.id, updateId: sent.update_id };
	}

	const botReplies = async (emulator: TelegramEmulator, userId: number, bot?: string) =>
		(await emulator.control.chatMessages(userId, bot)).filter((m) => m.from_bot);

	it('guests writing while the token changes to another bot: every update to bot A answered once or still waiting with A, then bot B answers', async () => {
		const { emulator, worker } = await setUp();
		const first = await guestWrites(emulator, 'Before');
		await emulator.control.waitForMessage(first.userId, (m) => m.from_bot, { timeoutMs: 15_000 });

		await worker.saveToken(TOKEN_B);
		// A burst just before the pass, while A's replies are slow: some of it waits with A when the
		// pass begins, some is in the batch in hand, some in the long poll cut short.
		await emulator.control.injectFault({ method: 'sendMessage', kind: 'delay', ms: 150, times: 8 });
		const before = [first];
		for (let i = 0; i < 6; i++) before.push(await guestWrites(emulator, `Burst ${i}`));
		// Guests keep writing to bot A while the worker's settings pass hands the updates over.
		const toA: { userId: number; updateId?: number }[] = [...before];
		let switching = true;
		const writing = (async () => {
			for (let i = 0; (switching && i < 15) || i < 3; i++) toA.push(await guestWrites(emulator, `During ${i}`));
		})();
		await worker.settingsPass().finally(() => (switching = false));
		await writing;

		const pendingWithA = new Set(
			((await emulator.control.updates('kiosk_a_bot')).pending as { update: { update_id: number } }[]).map(
				(entry) => entry.update.update_id
			)
		);
		for (const guest of toA) {
			const replies = await botReplies(emulator, guest.userId);
			// Answered exactly once, or not taken at all: still waiting with bot A (nothing confirmed unanswered).
			if (replies.length === 0) expect(pendingWithA.has(guest.updateId ?? -1)).toBe(true);
			else expect(replies).toHaveLength(1);
		}
		// Everything written before the switch began was answered by bot A, once: the handover takes
		// what A still had waiting before its token is given up.
		for (const guest of before) expect(await botReplies(emulator, guest.userId)).toHaveLength(1);

		// Bot B now: its update ids start again at 1, the same ids bot A's guests already used.
		const bBot = `emulated_2000000002_bot`;
		for (const name of ['After 1', 'After 2', 'After 3']) {
			const guest = await guestWrites(emulator, name, bBot);
			const reply = await emulator.control.waitForMessage(guest.userId, (m) => m.from_bot, {
				timeoutMs: 15_000,
				bot: bBot
			});
			expect(reply.text).toMatch(/kiosk|code|QR/i);
			expect(await botReplies(emulator, guest.userId)).toHaveLength(0); // nothing from bot A
		}
		expect(worker.runner.bot.botInfo.username).toBe(bBot);
		// New work names the new bot: the kiosk QR link (published username) and pack names.
		expect(await readBotUsername(worker.db)).toBe(bBot);
		expect(worker.packNameBot()).toBe(bBot);
		// The clients built before the switch (outboxes, alerts) speak for bot B now.
		expect((await worker.alertApi.getMe()).username).toBe(bBot);
	});

	it('a token Telegram refuses: bot A keeps answering, the refusal is recorded for the pages, the admins are told once', async () => {
		const { emulator, worker } = await setUp();
		// The admin has opened the bot (a bot may only write to people who wrote to it).
		await emulator.control.createUser({ id: ADMIN_ID, first_name: 'Admin', language_code: 'en' });
		await emulator.control.sendUserMessage({ user_id: ADMIN_ID, text: '/help' });

		await worker.saveToken(WRONG_TOKEN);
		await worker.settingsPass();
		const refusal = await readBotTokenRefusal(worker.db);
		expect(refusal?.sentence).toMatch(/Telegram refused the new bot token .*keeps running as @kiosk_a_bot/);
		const alerts = async () =>
			(await botReplies(emulator, ADMIN_ID)).filter((m) =>
				/bot token saved on the console was refused/.test(m.text ?? '')
			);
		expect(await alerts()).toHaveLength(1);

		// Bot A still answers guests.
		const guest = await guestWrites(emulator, 'Still A');
		await emulator.control.waitForMessage(guest.userId, (m) => m.from_bot, { timeoutMs: 15_000 });
		expect(worker.runner.bot.botInfo.username).toBe('kiosk_a_bot');

		// Later passes, and another worker (or a restart) meeting the same token, do not alert again.
		worker.clock.advance(2 * MINUTE);
		await worker.settingsPass();
		await worker.settingsPass(worker.newSwitch());
		expect(await alerts()).toHaveLength(1);

		// A restart with the refused token still saved starts bot A with the environment's token, no new alert.
		const retired: { username: string; token: string }[] = [];
		const start = {
			db: worker.db,
			clock: worker.clock,
			logger: silentLogger,
			apiRoot: emulator.url,
			retireBot: async (bot: { username: string; token: string }) => void retired.push(bot)
		};
		expect(await botTokenToStartWith(start, TOKEN_A, WRONG_TOKEN)).toBe(TOKEN_A);
		expect(retired).toEqual([]);
		// A restart with bot B's token saved starts bot B, and keeps bot A's token (guest-forget-environment-bot.test.ts).
		expect(await botTokenToStartWith(start, TOKEN_A, TOKEN_B)).toBe(TOKEN_B);
		expect(retired).toEqual([{ username: 'kiosk_a_bot', token: TOKEN_A }]);
		expect(await alerts()).toHaveLength(1);

		// A good token afterwards switches and clears the refusal.
		await worker.saveToken(TOKEN_B);
		await worker.settingsPass();
		expect(await readBotTokenRefusal(worker.db)).toBeNull();
		expect(worker.runner.bot.botInfo.username).toBe('emulated_2000000002_bot');
	});
});
