import { GrammyError } from 'grammy';
import { afterEach, describe, expect, it } from 'vitest';
import { retiredBotToken } from '../../src/lib/server/settings/retired-bots.ts';
import { forgetGuest } from '../../src/worker/bot/features/guest-forget.ts';
import { createTelegramEmulator } from '../../tools/telegram-emulator/server.ts';
import { createStickerSet, forgetThroughBot } from '../helpers/old-bot-sets.ts';
import { useTestDb } from '../helpers/test-db.ts';
import { ADMIN_ID, startWorker, TOKEN_A, TOKEN_B } from '../helpers/token-switch-world.ts';
import { insertGuest } from './lifecycle-fixtures.ts';

/**
 * Telegram lets only the bot that made a sticker set delete it. A guest whose pack bot A made, and
 * who asks bot B (the console switched bots since) to forget them, must still lose that pack.
 */
const BOT_A = 'kiosk_a_bot';
const BOT_B = 'emulated_2000000002_bot';
const AT = '2027-03-01T09:00:00.000Z';
const SECRET_KEY = Buffer.from('ab'.repeat(32), 'hex');

describe('/forget after the console changed the bot token', () => {
	const testDb = useTestDb('forget-old-bot-');
	const cleanups: (() => Promise<void>)[] = [];
	afterEach(async () => {
		for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
	});

	/** Bot A made the guest's pack; then the owner saved bot B's token and the worker switched. */
	async function guestOfBotAThenSwitch(languageCode: string) {
		const emulator = await createTelegramEmulator({ botToken: TOKEN_A, botUsername: BOT_A });
		cleanups.push(() => emulator.close());
		const worker = await startWorker(testDb, emulator);
		cleanups.push(() => worker.keeper.stop());
		await worker.keeper.tick();
		const user = await emulator.control.createUser({ first_name: 'Malika', language_code: languageCode });
		const packName = `p${user.id}_1_by_${BOT_A}`;
		await createStickerSet(emulator, TOKEN_A, user.id, packName);
		await insertGuest(worker.db, { id: BigInt(user.id), at: AT, packName });

		await worker.saveToken(TOKEN_B);
		await worker.settingsPass();
		expect(worker.runner.bot.botInfo.username).toBe(BOT_B);
		return { emulator, worker, userId: user.id, packName };
	}

	it("deletes the pack bot A made with bot A's kept token, and erases the guest", async () => {
		const { emulator, worker, userId, packName } = await guestOfBotAThenSwitch('en');
		// The switch kept A's token, sealed: nothing else could delete A's sets.
		expect(await retiredBotToken(worker.db, SECRET_KEY, BOT_A)).toBe(TOKEN_A);
		const raw = await worker.db.setting.findUnique({ where: { key: `retired-bot.${BOT_A}` } });
		expect(raw?.value).not.toContain(TOKEN_A.split(':')[1]);

		const text = await forgetThroughBot(emulator, userId, BOT_B, /Done/);
		expect(text).toContain('Sticker sets deleted from Telegram: 1.');
		expect(await emulator.control.getStickerSet(packName)).toBeNull();
		expect(await worker.db.user.count()).toBe(0);
		expect(await worker.db.adminAlert.count()).toBe(0);
	}, 60_000);

	it('without a token of bot A (a switch made before tokens were kept): erases the guest, says the pack is left, tells the admins its name', async () => {
		const { emulator, worker, userId, packName } = await guestOfBotAThenSwitch('ru');
		await worker.db.setting.delete({ where: { key: `retired-bot.${BOT_A}` } });

		const text = await forgetThroughBot(emulator, userId, BOT_B, /Готово/);
		expect(text).toContain('Удалено стикерпаков из Telegram: 0. Ещё 1 создал наш прежний бот');
		// Bot B's "STICKERSET_INVALID" is not taken for "already gone": the set is still there, and said so.
		expect(await emulator.control.getStickerSet(packName)).not.toBeNull();
		expect(await worker.db.user.count()).toBe(0);
		const alerts = await worker.db.adminAlert.findMany();
		expect(alerts).toHaveLength(1);
		expect(alerts[0]!.chatId).toBe(BigInt(ADMIN_ID));
		expect(alerts[0]!.text).toContain(`made by @${BOT_A}`);
		expect(alerts[0]!.text).toContain(packName);
	}, 60_000);

	it('the same bot under a new token (revoked at @BotFather): nothing is kept, /forget deletes its own pack with the new token', async () => {
		const emulator = await createTelegramEmulator({ botToken: TOKEN_A, botUsername: BOT_A });
		cleanups.push(() => emulator.close());
		const worker = await startWorker(testDb, emulator);
		cleanups.push(() => worker.keeper.stop());
		await worker.keeper.tick();
		const user = await emulator.control.createUser({ first_name: 'Aziz', language_code: 'en' });
		const packName = `p${user.id}_1_by_${BOT_A}`;
		await createStickerSet(emulator, TOKEN_A, user.id, packName);
		await insertGuest(worker.db, { id: BigInt(user.id), at: AT, packName });

		const { token: renewed } = await emulator.control.revokeBotToken(BOT_A);
		await worker.saveToken(renewed);
		await worker.settingsPass();
		expect(worker.runner.bot.token).toBe(renewed);
		expect(worker.runner.bot.botInfo.username).toBe(BOT_A);
		// The old token answers 401 now: keeping it would delete nothing, and the bot's sets are its own.
		expect(await worker.db.setting.count({ where: { key: { startsWith: 'retired-bot.' } } })).toBe(0);

		const text = await forgetThroughBot(emulator, user.id, BOT_A, /Done/);
		expect(text).toContain('Sticker sets deleted from Telegram: 1.');
		expect(await emulator.control.getStickerSet(packName)).toBeNull();
		expect(await worker.db.user.count()).toBe(0);
		expect(await worker.db.adminAlert.count()).toBe(0);
	}, 60_000);

	it("bot A's token revoked since (401): the same, the pack is reported as left; another refusal erases nothing", async () => {
		const { worker, userId, packName } = await guestOfBotAThenSwitch('en');
		const refusal = (code: number, description: string) => ({
			deleteStickerSet: async (): Promise<true> => {
				throw new GrammyError(
					'Call to deleteStickerSet failed!',
					{ ok: false, error_code: code, description },
					'deleteStickerSet',
					{}
				);
			}
		});
		expect(await forgetGuest(worker.deps, async () => refusal(500, 'Internal Server Error'), BigInt(userId))).toEqual({
			kind: 'failed'
		});
		expect(await worker.db.user.count()).toBe(1);

		expect(await forgetGuest(worker.deps, async () => refusal(401, 'Unauthorized'), BigInt(userId))).toEqual({
			kind: 'done',
			setsDeleted: 0,
			setsLeft: [packName]
		});
		expect(await worker.db.user.count()).toBe(0);
		expect(await worker.db.adminAlert.count()).toBe(1);
	}, 60_000);
});
