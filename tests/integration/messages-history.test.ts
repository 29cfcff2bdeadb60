import { afterEach, describe, expect, it } from 'vitest';
import { resetGuest } from '../../src/lib/server/guests/reset-guest.ts';
import { loadPseudonymKey } from '../../src/lib/server/lifecycle/pseudonym.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { DAY } from '../../src/lib/server/time/clock.ts';
import { changeSetting } from '../../src/lib/server/settings/runtime-setting-change.ts';
import { RUNTIME_SETTINGS_TTL_MS } from '../../src/lib/server/settings/runtime-settings.ts';
import { runRetention } from '../../src/worker/tasks/retention.task.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import {
	eventually,
	guestReachesOutfit,
	newGuest,
	startGuestWorld,
	startSession,
	type Guest,
	type GuestWorld,
	updatesHandled
} from './guest-harness.ts';

// The bot's message history through the production bot (createBot, every feature) long-polling the
// Telegram emulator, on a real migrated SQLite file, with the world's FakeClock for every date.

describe('message history: what the bot records of its private chats', () => {
	const tempDir = useTempDir('messages-history-');
	let world: GuestWorld;
	afterEach(async () => world?.close());

	const historyOf = (guest: Guest) =>
		world.db.botMessage.findMany({
			where: { telegramUserId: BigInt(guest.id) },
			orderBy: { id: 'asc' },
			select: { direction: true, kind: true, text: true, at: true }
		});
	const activity = () => world.db.messageActivity.findMany({ orderBy: { day: 'asc' } });
	/** Waits until the guest's history holds at least `count` rows (the writer runs after the reply). */
	const historyAtLeast = (guest: Guest, count: number) =>
		eventually(
			() => historyOf(guest),
			(rows) => rows.length >= count
		);

	it('records /start, consent and the outfit choice in and out, in order, without the session token', async () => {
		world = await startGuestWorld(tempDir());
		const token = await startSession(world);
		const guest = await newGuest(world, 'en', 'Dilnoza');
		await guestReachesOutfit(world, guest, token);
		await guest.waitFor((m) => /kiosk/i.test(m.text ?? ''));
		const rows = await historyAtLeast(guest, 6);

		expect(rows.map((r) => `${r.direction}:${r.kind}`)).toEqual([
			'in:command',
			'out:text',
			'in:callback',
			'out:photo',
			'in:callback',
			...rows.slice(5).map((r) => `${r.direction}:${r.kind}`)
		]);
		expect(rows.slice(5).every((r) => r.direction === 'out')).toBe(true);
		expect(rows[0]?.text).toBe('/start');
		expect(rows[1]?.text).toContain('Dilnoza');
		expect(rows[2]?.text).toBeTruthy(); // the label of the consent button the guest pressed
		expect(JSON.stringify(rows)).not.toContain(token);
		const today = (await activity())[0];
		expect(today).toMatchObject({ day: '2026-03-01', incoming: 3, outgoing: rows.length - 3, guests: 1 });
	});

	it('records what the worker’s guest notices client sends, like the bot’s own replies', async () => {
		world = await startGuestWorld(tempDir());
		const guest = await newGuest(world, 'en', 'Dilnoza');
		await guest.send('/start');
		await historyAtLeast(guest, 2);
		await world.noticeApi.sendMessage(guest.id, 'Generating your stickers… (from the notices outbox)');
		const rows = await historyAtLeast(guest, 3);
		expect(rows.at(-1)).toMatchObject({
			direction: 'out',
			kind: 'text',
			text: 'Generating your stickers… (from the notices outbox)'
		});
	});

	it('never records the sales group, neither what people write there nor the cards the bot posts', async () => {
		const probe = await startGuestWorld(tempDir());
		const group = (await probe.emulator.control.config()).sales_group.id;
		await probe.close();
		world = await startGuestWorld(tempDir(), { LEADS_CHAT_ID: String(group) });
		const admin = await newGuest(world, 'en', 'Sales');
		await world.emulator.control.addGroupMember(group, admin.id, true);
		await world.emulator.control.sendUserMessage({ user_id: admin.id, chat_id: group, text: '/stickers_forget 1' });
		await world.bot.api.sendMessage(group, 'New lead: Aziza');
		await admin.send('hello');
		await historyAtLeast(admin, 1);
		const all = await world.db.botMessage.findMany();
		expect(all.every((row) => row.telegramUserId === BigInt(admin.id))).toBe(true);
		expect(all.map((row) => row.text)).not.toContain('New lead: Aziza');
		expect(all.map((row) => row.text)).not.toContain('/stickers_forget 1');
	});

	it('never records a person’s chat set as the sales group on the console', async () => {
		world = await startGuestWorld(tempDir());
		const [desk, other] = [await newGuest(world, 'en', 'Sales desk'), await newGuest(world, 'en', 'Bekzod')];
		await changeSetting(world, { name: 'olga', ip: null }, 'salesGroupChatId', String(desk.id));
		world.clock.advance(RUNTIME_SETTINGS_TTL_MS);
		await world.runtime.read(); // what the leads task does every second
		await desk.send('/stickers_forget 1');
		await world.bot.api.sendMessage(desk.id, 'New lead: Bobur');
		await other.send('hello');
		await historyAtLeast(other, 1);
		const all = await world.db.botMessage.findMany();
		expect(all.filter((row) => row.telegramUserId === BigInt(desk.id))).toEqual([]);
	});

	it('counts messages and distinct people per UTC day across midnight', async () => {
		world = await startGuestWorld(tempDir());
		const [aziza, bekzod] = [await newGuest(world), await newGuest(world, 'en', 'Bekzod')];
		world.clock.set('2026-03-01T23:59:30.000Z');
		await aziza.send('hello');
		await aziza.send('anyone there?');
		const before = await historyAtLeast(aziza, 2);
		world.clock.set('2026-03-02T00:00:30.000Z');
		await aziza.send('good morning');
		await bekzod.send('hi');
		await historyAtLeast(bekzod, 1);
		const after = await eventually(
			() => historyOf(aziza),
			(rows) => rows.some((r) => r.text === 'good morning')
		);
		await updatesHandled(world); // the replies to the last messages, if any, are recorded
		const all = await world.db.botMessage.findMany();
		const count = (day: string, direction: string) =>
			all.filter((r) => r.at.startsWith(day) && r.direction === direction).length;
		expect(before.every((r) => r.at.startsWith('2026-03-01'))).toBe(true);
		expect(after.at(-1)?.at.startsWith('2026-03-02')).toBe(true);
		expect(await activity()).toEqual([
			{ day: '2026-03-01', incoming: 2, outgoing: count('2026-03-01', 'out'), guests: 1 },
			{ day: '2026-03-02', incoming: 2, outgoing: count('2026-03-02', 'out'), guests: 2 }
		]);
	});

	it('a guest who says /forget loses their history, the confirmation included; the counters stay', async () => {
		world = await startGuestWorld(tempDir());
		const guest = await newGuest(world, 'en');
		await guestReachesOutfit(world, guest, await startSession(world));
		await historyAtLeast(guest, 6);
		await guest.send('/forget');
		const ask = await guest.waitFor((m) => m.buttons.flat().some((b) => b.callback_data === 'forget:yes'));
		await guest.press(ask.message_id, 'forget:yes');
		await guest.waitFor((m) => m.message_id === ask.message_id && !/\?/.test(m.text ?? ''));
		await eventually(
			() => historyOf(guest),
			(rows) => rows.length === 0
		);
		await updatesHandled(world); // nothing written after the erasure comes back
		expect(await historyOf(guest)).toEqual([]);
		const today = (await activity())[0];
		expect(today?.incoming).toBeGreaterThanOrEqual(5);
		expect(today?.guests).toBe(1);
	});

	it('the console reset deletes the guest’s history; retention deletes any history older than GUEST_RETENTION_DAYS', async () => {
		world = await startGuestWorld(tempDir(), { GUEST_RETENTION_DAYS: '30' });
		const [reset, kept] = [await newGuest(world), await newGuest(world, 'en', 'Bekzod')];
		await guestReachesOutfit(world, reset, await startSession(world));
		await kept.send('hello');
		await historyAtLeast(reset, 6);
		await historyAtLeast(kept, 1);
		const key = loadPseudonymKey(world.dir);
		await resetGuest(
			{
				db: world.db,
				clock: world.clock,
				dbPath: world.dbPath,
				fileStore: world.fileStore,
				pseudonymKey: key,
				logger: silentLogger
			},
			{ name: 'olga', ip: null },
			BigInt(reset.id)
		);
		expect(await historyOf(reset)).toEqual([]);
		expect((await historyOf(kept)).length).toBeGreaterThan(0);

		const deps = {
			db: world.db,
			clock: world.clock,
			logger: silentLogger,
			dataDir: world.dir,
			fileStore: world.fileStore,
			dbPath: world.dbPath,
			pseudonymKey: key,
			retentionDays: 30
		};
		world.clock.advance(30 * DAY - 60_000);
		await runRetention(deps);
		expect((await historyOf(kept)).length).toBeGreaterThan(0); // a minute short of the period
		world.clock.advance(2 * 60_000);
		await runRetention(deps);
		expect(await world.db.botMessage.count()).toBe(0);
		expect((await activity()).map((a) => a.day)).toEqual(['2026-03-01']);
	});

	it('a history write that fails does not stop or change the bot’s reply', async () => {
		world = await startGuestWorld(tempDir());
		await world.db.$executeRawUnsafe('DROP TABLE bot_messages');
		const guest = await newGuest(world, 'en', 'Dilnoza');
		const token = await startSession(world);
		await guest.send(`/start ${token}`);
		const prompt = await guest.waitFor((m) => m.buttons.length > 0);
		expect(prompt.text).toContain('Dilnoza');
		expect(await activity()).toEqual([]);
	});
});
