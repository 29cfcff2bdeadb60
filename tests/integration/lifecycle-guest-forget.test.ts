import { existsSync } from 'node:fs';
import path from 'node:path';
import { Api, GrammyError, InputFile } from 'grammy';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { EMULATOR_BOT_TOKEN, parseConfig } from '../../src/lib/server/config/config.ts';
import type { Db } from '../../src/lib/server/db/client.ts';
import { resetGuest } from '../../src/lib/server/guests/reset-guest.ts';
import { eraseGuest } from '../../src/lib/server/lifecycle/guest-erasure.ts';
import { loadPseudonymKey, pseudonymForGuest } from '../../src/lib/server/lifecycle/pseudonym.ts';
import { RETIRED_SET_DAYS } from '../../src/lib/server/lifecycle/retired-sticker-sets.ts';
import { isPackNameRetired } from '../../src/lib/server/lifecycle/retired-pack-names.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { DAY, FakeClock } from '../../src/lib/server/time/clock.ts';
import { runRetention } from '../../src/worker/tasks/retention.task.ts';
import type { BotDeps } from '../../src/worker/bot/context.ts';
import { forgetGuest } from '../../src/worker/bot/features/guest-forget.ts';
import { createBot } from '../../src/worker/bot/index.ts';
import { BotRunner } from '../../src/worker/bot/runner.ts';
import { createTelegramEmulator, type TelegramEmulator } from '../../tools/telegram-emulator/server.ts';
import { createTestDb } from '../helpers/test-db.ts';
import { botRunnerDeps } from '../helpers/bot-runner.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { insertGuest, writeFileAt } from './lifecycle-fixtures.ts';
import { localFileStore } from '../helpers/file-store.ts';
import { botDepsFor } from '../helpers/bot-deps.ts';

const AT = '2027-01-05T09:00:00.000Z';

describe('/forget in the bot: the guest erases themselves', () => {
	const tempDir = useTempDir('kiosk-forget-');
	const cleanups: (() => Promise<void>)[] = [];
	afterEach(async () => {
		for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
	});

	async function start(): Promise<{
		emulator: TelegramEmulator;
		db: Db;
		deps: BotDeps;
		dataDir: string;
		dbPath: string;
		clock: FakeClock;
	}> {
		const emulator = await createTelegramEmulator({ botToken: EMULATOR_BOT_TOKEN });
		cleanups.push(() => emulator.close());
		const dataDir = tempDir();
		const { db, dbPath } = await createTestDb(dataDir);
		cleanups.push(() => db.$disconnect());
		const config = parseConfig({ DB_PATH: dbPath, DATA_DIR: dataDir, TELEGRAM_API_ROOT: emulator.url });
		const clock = new FakeClock(AT);
		const deps = botDepsFor(db, clock, config);
		// Cleaned up in reverse: the runner stops, then the history written behind its replies lands.
		cleanups.push(() => deps.history.idle());
		const runner = new BotRunner(
			createBot({ token: EMULATOR_BOT_TOKEN, apiRoot: emulator.url }, deps),
			botRunnerDeps(db, clock),
			{
				apiRoot: emulator.url
			}
		);
		runner.start();
		cleanups.push(() => runner.stop());
		return { emulator, db, deps, dataDir, dbPath, clock };
	}

	async function createStickerSet(emulator: TelegramEmulator, userId: number, name: string): Promise<void> {
		const png = await sharp({
			create: { width: 512, height: 512, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 1 } }
		})
			.png()
			.toBuffer();
		const api = new Api(EMULATOR_BOT_TOKEN, { apiRoot: emulator.url });
		await api.createNewStickerSet(userId, name, 'My stickers', [
			{ sticker: new InputFile(png, 's.png'), format: 'static', emoji_list: ['😀'] }
		]);
	}

	async function askAndPress(
		emulator: TelegramEmulator,
		userId: number,
		answer: 'forget:yes' | 'forget:no',
		expectEdited: RegExp
	): Promise<string> {
		await emulator.control.sendUserMessage({ user_id: userId, text: '/forget' });
		const ask = await emulator.control.waitForMessage(
			userId,
			(m) => m.from_bot && m.buttons.flat().some((b) => b.callback_data === answer) && !m.edited,
			{ timeoutMs: 15_000 }
		);
		await emulator.control.pressButton({ user_id: userId, message_id: ask.message_id, callback_data: answer });
		const edited = await emulator.control.waitForMessage(
			userId,
			(m) => m.message_id === ask.message_id && m.edited && expectEdited.test(m.text ?? ''),
			{ timeoutMs: 15_000 }
		);
		return edited.text ?? '';
	}

	it('asks first; on "yes" deletes the sticker set, the files and the rows, and confirms in the guest’s language', async () => {
		const { emulator, db, deps, dataDir } = await start();
		const user = await emulator.control.createUser({ first_name: 'Aziz', language_code: 'ru' });
		const packName = `u${user.id}_1_by_sticker_kiosk_bot`;
		await createStickerSet(emulator, user.id, packName);
		const { token, jobId } = await insertGuest(db, { id: BigInt(user.id), at: AT, packName });
		const selfie = writeFileAt(path.join(dataDir, 'sessions', token, 'face_crop.jpg'), new Date());
		const sheet = writeFileAt(path.join(dataDir, 'debug_sheets', `job${jobId}_anchor.png`), new Date());
		expect(await emulator.control.getStickerSet(packName)).not.toBeNull();

		const text = await askAndPress(emulator, user.id, 'forget:yes', /Готово/);
		expect(text).toContain('Удалено стикерпаков из Telegram: 1.');
		expect(text).toContain('14 дней');

		expect(await emulator.control.getStickerSet(packName)).toBeNull();
		expect(await db.user.count()).toBe(0);
		expect(await db.session.count()).toBe(0);
		expect(await db.job.count()).toBe(0);
		expect(existsSync(selfie) || existsSync(sheet)).toBe(false);
		const key = loadPseudonymKey(dataDir);
		expect(await db.erasure.findMany({ select: { subject: true, reason: true } })).toEqual([
			{ subject: pseudonymForGuest(key, BigInt(user.id)), reason: 'forget' }
		]);
		expect(await isPackNameRetired(db, key, BigInt(user.id), packName)).toBe(true);

		// Pressing the old button again, or asking again, finds nothing left.
		expect(await forgetGuest(deps, async () => ({ deleteStickerSet: async () => true }), BigInt(user.id))).toEqual({
			kind: 'nothing'
		});
	}, 60_000);

	it('on "no" nothing is deleted (English guest)', async () => {
		const { emulator, db } = await start();
		const user = await emulator.control.createUser({ first_name: 'Ann', language_code: 'en' });
		await insertGuest(db, { id: BigInt(user.id), at: AT });
		expect(await askAndPress(emulator, user.id, 'forget:no', /Nothing was deleted/)).toBe('Nothing was deleted.');
		expect(await db.user.count()).toBe(1);
	}, 60_000);

	it('waits while a pack is being made, and keeps everything when Telegram refuses to delete the set', async () => {
		const { emulator, db, deps } = await start();
		const user = await emulator.control.createUser({ first_name: 'Olim', language_code: 'uz' });
		await insertGuest(db, { id: BigInt(user.id), at: AT, jobStatus: 'processing' });
		expect(await askAndPress(emulator, user.id, 'forget:yes', /tayyorlanmoqda/)).toContain('/forget');
		expect(await db.user.count()).toBe(1);

		await db.job.updateMany({ data: { status: 'done', packName: 'u1_1_by_sticker_kiosk_bot' } });
		const refusing = {
			deleteStickerSet: async (): Promise<true> => {
				throw new GrammyError(
					'Call to deleteStickerSet failed!',
					{ ok: false, error_code: 400, description: 'Bad Request: not enough rights' },
					'deleteStickerSet',
					{}
				);
			}
		};
		expect(await forgetGuest(deps, async () => refusing, BigInt(user.id))).toEqual({ kind: 'failed' });
		expect(await db.user.count()).toBe(1);
		expect(await db.job.count()).toBe(1);
	}, 60_000);

	/** A guest with two packs (their first and an extra one), both created in Telegram. */
	async function guestWithTwoPacks(emulator: TelegramEmulator, db: Db, languageCode: string) {
		const user = await emulator.control.createUser({ first_name: 'Dilnoza', language_code: languageCode });
		const packs = [`u${user.id}_1_by_sticker_kiosk_bot`, `u${user.id}_2_by_sticker_kiosk_bot`];
		for (const name of packs) await createStickerSet(emulator, user.id, name);
		await insertGuest(db, { id: BigInt(user.id), at: AT, packName: packs[0] });
		await db.job.create({
			data: {
				telegramUserId: BigInt(user.id),
				sessionToken: `tok_${user.id}`,
				photoPath: 'p.jpg',
				templateId: 'suit',
				status: 'done',
				packName: packs[1],
				createdAt: AT,
				updatedAt: AT
			}
		});
		return { user, packs };
	}

	it('after an operator reset, /forget still deletes the guest’s sticker sets and says how many', async () => {
		const { emulator, db, dataDir, dbPath, clock } = await start();
		const { user, packs } = await guestWithTwoPacks(emulator, db, 'en');
		await resetGuest(
			{
				db,
				clock,
				dbPath,
				fileStore: localFileStore(dataDir),
				pseudonymKey: loadPseudonymKey(dataDir),
				logger: silentLogger
			},
			{ name: 'anna', ip: null },
			BigInt(user.id)
		);
		expect(await db.user.count()).toBe(0);
		expect(await db.retiredStickerSet.findMany({ orderBy: { name: 'asc' } })).toMatchObject(
			packs.map((name) => ({ name, telegramUserId: BigInt(user.id), reason: 'reset_user' }))
		);

		const text = await askAndPress(emulator, user.id, 'forget:yes', /Done/);
		expect(text).toContain('Sticker sets deleted from Telegram: 2.');
		for (const name of packs) expect(await emulator.control.getStickerSet(name)).toBeNull();
		expect(await db.retiredStickerSet.count()).toBe(0);
		// The reset's audit entry no longer names the guest either.
		expect(await db.auditLog.count({ where: { telegramUserId: BigInt(user.id) } })).toBe(0);
	}, 60_000);

	it('after the retention erasure too; a set the guest deleted themselves is "none left"; the list has its own clock', async () => {
		const { emulator, db, dataDir, clock } = await start();
		const key = loadPseudonymKey(dataDir);
		const first = await guestWithTwoPacks(emulator, db, 'uz');
		const second = await guestWithTwoPacks(emulator, db, 'ru');
		const third = await guestWithTwoPacks(emulator, db, 'en');
		for (const { user } of [first, second, third])
			await eraseGuest(
				{ db, clock, fileStore: localFileStore(dataDir), pseudonymKey: key },
				BigInt(user.id),
				'retention'
			);
		expect(await db.user.count()).toBe(0);
		expect(await db.retiredStickerSet.count({ where: { reason: 'retention' } })).toBe(6);

		const uzText = await askAndPress(emulator, first.user.id, 'forget:yes', /Tayyor/);
		expect(uzText).toContain("Telegramdan o'chirilgan stikerlar to'plamlari: 2.");
		for (const name of first.packs) expect(await emulator.control.getStickerSet(name)).toBeNull();

		// The guest removed both sets in Telegram themselves: nothing of theirs was left to delete.
		const api = new Api(EMULATOR_BOT_TOKEN, { apiRoot: emulator.url });
		for (const name of second.packs) await api.deleteStickerSet(name);
		const ruText = await askAndPress(emulator, second.user.id, 'forget:yes', /Готово/);
		expect(ruText).toContain('Ваших стикерпаков в Telegram уже не было');

		// RETIRED_SET_DAYS after the erasure the list forgets the third guest's sets: the sets stay theirs.
		clock.advance(RETIRED_SET_DAYS * DAY + DAY);
		await runRetention({
			db,
			clock,
			logger: silentLogger,
			fileStore: localFileStore(dataDir),
			dbPath: path.join(dataDir, 'none.db'),
			pseudonymKey: key,
			retentionDays: 90
		});
		expect(await db.retiredStickerSet.count()).toBe(0);
		expect(await askAndPress(emulator, third.user.id, 'forget:yes', /nothing to delete/)).toBe(
			'We keep nothing about you: there is nothing to delete.'
		);
		for (const name of third.packs) expect(await emulator.control.getStickerSet(name)).not.toBeNull();
	}, 90_000);
});
