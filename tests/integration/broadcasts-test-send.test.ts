import { describe, expect, it } from 'vitest';
import type { OperatorIdentity } from '../../src/lib/server/auth/roles.ts';
import { createBroadcast } from '../../src/lib/server/broadcasts/broadcasts.repository.ts';
import { markBotBlocked } from '../../src/lib/server/guests/bot-blocked.ts';
import { deliverBroadcasts } from '../../src/worker/tasks/broadcasts-deliver.ts';
import { broadcastDeliveryDeps } from './broadcast-world.ts';
import { consoleCaller, insertOperator } from './console-fixtures.ts';
import { eventually, newGuest, useGuestWorlds, type Guest, type GuestWorld } from './guest-harness.ts';

/**
 * "Send a test to me" end to end: the real console router, the production bot polling the
 * emulator (the operator's chat sends /link and /stop there), the worker's delivery pass, all on
 * one FakeClock — so the code's 10 minutes and the per-operator limits are the clock's time.
 */
const startWorld = useGuestWorlds('bcast-test-send-');

async function setUp() {
	const w = await startWorld();
	const ivan = await insertOperator(w.db, w.clock, 'ivan', 'operator');
	const as = (who: OperatorIdentity) => consoleCaller(w.db, w.clock, w.dir, who);
	const broadcast = await createBroadcast(w.db, w.clock.now().toISOString(), {
		eventId: null,
		text: 'Test me m1',
		imagePath: null,
		buttonText: null,
		buttonUrl: null,
		createdBy: 'ivan'
	});
	const deps = broadcastDeliveryDeps(w);
	return { w, ivan, as, id: broadcast.id, deps };
}

/** The chat sends `/link …` and waits for the bot's answer (the `n`-th answer it has had). */
async function sendLink(chat: Guest, argument: string): Promise<string> {
	const before = (await chat.messages()).filter((m) => m.from_bot).length;
	await chat.send(`/link ${argument}`.trim());
	const answers = await eventually(
		async () => (await chat.messages()).filter((m) => m.from_bot),
		(list) => list.length > before
	);
	return answers.at(-1)!.text ?? '';
}

async function linkChat(
	w: GuestWorld,
	as: (who: OperatorIdentity) => ReturnType<typeof consoleCaller>,
	who: OperatorIdentity,
	name: string
): Promise<Guest> {
	const chat = await newGuest(w, 'en', name);
	const { code } = await as(who).profile.requestTelegramCode();
	expect(await sendLink(chat, code)).toContain(`linked to the console account “${who.username}”`);
	return chat;
}

const testSends = (w: GuestWorld, chat: Guest) =>
	w.emulator.control
		.chatMessages(chat.id)
		.then((list) => list.filter((m) => m.from_bot && m.text?.includes('Test me m1')).length);

describe('test sends of a broadcast', () => {
	it('refuses an operator without a proven chat, including an id typed in before proof was required', async () => {
		const { w, ivan, as, id } = await setUp();
		await expect(as(ivan).broadcasts.testSend({ id })).rejects.toMatchObject({
			code: 'BAD_REQUEST',
			message: expect.stringContaining('Link your own Telegram chat on your profile page')
		});
		const stranger = await newGuest(w, 'en', 'Stranger');
		await w.db.operator.update({ where: { id: ivan.id }, data: { telegramId: BigInt(stranger.id) } });
		await expect(as(ivan).broadcasts.testSend({ id })).rejects.toMatchObject({
			message: expect.stringContaining('was typed in, not proven')
		});
		expect(await as(ivan).profile.telegram()).toMatchObject({ telegramId: String(stranger.id), verifiedAt: null });
		expect(await w.db.broadcastRecipient.count()).toBe(0);
	});

	it('links the chat that sends the code; the test reaches it through the worker; the audit names the chat', async () => {
		const { w, ivan, as, id, deps } = await setUp();
		const chat = await newGuest(w, 'ru', 'Ivan');
		const issued = await as(ivan).profile.requestTelegramCode();
		expect(issued.command).toMatch(/^\/link [0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
		expect(await as(ivan).profile.telegram()).toMatchObject({
			telegramId: null,
			codeExpiresAt: '2026-03-01T10:10:00.000Z'
		});
		expect(await sendLink(chat, issued.code.toLowerCase())).toBe(
			'Готово: этот чат привязан к учётной записи консоли «ivan». Пробные рассылки будут приходить сюда.'
		);
		expect(await as(ivan).profile.telegram()).toMatchObject({
			telegramId: String(chat.id),
			verifiedAt: '2026-03-01T10:00:00.000Z',
			codeExpiresAt: null
		});
		// One use only: the same code again is a wrong one.
		expect(await sendLink(chat, issued.code)).toContain('Код неверный');

		expect(await as(ivan).broadcasts.testSend({ id })).toEqual({ telegramId: String(chat.id) });
		await deliverBroadcasts(deps);
		expect(await testSends(w, chat)).toBe(1);
		expect(await w.db.broadcastRecipient.findFirst({ where: { test: true } })).toMatchObject({
			telegramUserId: BigInt(chat.id),
			state: 'sent'
		});

		const audit = await w.db.auditLog.findMany({ orderBy: { id: 'asc' } });
		expect(audit.map((a) => [a.action, a.actor, a.telegramUserId])).toEqual([
			['operator_telegram_code', 'ivan', null],
			['operator_telegram_verified', 'ivan', BigInt(chat.id)],
			['broadcast_test_send', 'ivan', BigInt(chat.id)]
		]);
		// The code is kept nowhere in clear: not in the audit, not in the message history.
		const history = await eventually(
			() =>
				w.db.botMessage.findMany({
					where: { telegramUserId: BigInt(chat.id), direction: 'in' },
					orderBy: { id: 'asc' }
				}),
			(rows) => rows.length >= 2
		);
		expect(history.map((m) => m.text)).toEqual(['/link', '/link']);
		const code = issued.code.replace('-', '');
		expect(JSON.stringify(audit, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(code);
		expect(await w.db.operatorLinkCode.count()).toBe(0);
	});

	it('locks a chat after five wrong codes, even for the right one, until the lock has passed', async () => {
		const { w, ivan, as } = await setUp();
		const chat = await newGuest(w, 'en', 'Guesser');
		const { code } = await as(ivan).profile.requestTelegramCode();
		expect(await sendLink(chat, '')).toContain('send /link followed by the code');
		for (const wrong of ['AAAA-AAAA', 'AAAA-AAAB', 'not a code', 'AAAA-AAAC', 'AAAA-AAAD'])
			expect(await sendLink(chat, wrong)).toContain('This code is not right');
		expect(await sendLink(chat, code)).toBe('Too many wrong codes from this chat. Try again in 15 min.');
		expect(await as(ivan).profile.telegram()).toMatchObject({ telegramId: null, verifiedAt: null });

		w.clock.advance(15 * 60_000);
		// The first code has expired meanwhile; a new one from the same chat now works.
		expect(await sendLink(chat, code)).toContain('This code has expired');
		const fresh = await as(ivan).profile.requestTelegramCode();
		expect(await sendLink(chat, fresh.code)).toContain('linked to the console account');
	});

	it('refuses an expired code: ten minutes on the clock', async () => {
		const { w, ivan, as, id } = await setUp();
		const chat = await newGuest(w, 'uz', 'Late');
		const { code } = await as(ivan).profile.requestTelegramCode();
		w.clock.advance(10 * 60_000);
		expect(await sendLink(chat, code)).toBe(
			'Bu kodning muddati tugagan (kod 10 daqiqa amal qiladi). Konsoldagi profil sahifangizda yangisini yarating.'
		);
		expect(await as(ivan).profile.telegram()).toMatchObject({ telegramId: null, codeExpiresAt: null });
		await expect(as(ivan).broadcasts.testSend({ id })).rejects.toMatchObject({
			message: expect.stringContaining('profile page')
		});
	});

	it('sends nothing to a proven chat that used /stop or blocked the bot, and says why; the worker checks again', async () => {
		const { w, ivan, as, id, deps } = await setUp();
		const olga = await insertOperator(w.db, w.clock, 'olga', 'owner');
		const ivansChat = await linkChat(w, as, ivan, 'Ivan');
		const olgasChat = await linkChat(w, as, olga, 'Olga');

		await ivansChat.send('/stop');
		await ivansChat.waitFor((m) => !!m.text?.startsWith('Done: we will not send'));
		await expect(as(ivan).broadcasts.testSend({ id })).rejects.toMatchObject({
			message: `Your Telegram chat ${ivansChat.id} has asked for no more messages (/stop or the “No more messages” button), so the bot sends it nothing, tests included.`
		});
		await markBotBlocked(w.db, w.clock, BigInt(olgasChat.id));
		await expect(as(olga).broadcasts.testSend({ id })).rejects.toMatchObject({
			message: expect.stringContaining(`chat ${olgasChat.id} has blocked the bot`)
		});
		expect(await w.db.broadcastRecipient.count()).toBe(0);
		const refused = await w.db.auditLog.findMany({
			where: { action: 'broadcast_test_refused' },
			orderBy: { id: 'asc' }
		});
		expect(refused.map((a) => [a.actor, a.telegramUserId, JSON.parse(a.details!).reason])).toEqual([
			['ivan', BigInt(ivansChat.id), 'opted_out'],
			['olga', BigInt(olgasChat.id), 'blocked']
		]);

		// Queued while fine, opted out before the worker's turn: the copy is closed, not sent.
		await w.db.guestBotBlock.deleteMany();
		await as(olga).broadcasts.testSend({ id });
		await olgasChat.send('/stop');
		await olgasChat.waitFor((m) => !!m.text?.startsWith('Done: we will not send'));
		await deliverBroadcasts(deps);
		expect(await testSends(w, olgasChat)).toBe(0);
		expect(await w.db.broadcastRecipient.findFirst({ where: { test: true } })).toMatchObject({
			state: 'skipped',
			error: 'opted out'
		});
	});

	it('allows 5 tests a minute and 30 a day per operator, and says when to try again', async () => {
		const { w, ivan, as, id } = await setUp();
		await linkChat(w, as, ivan, 'Ivan');
		for (let i = 0; i < 5; i++) await as(ivan).broadcasts.testSend({ id });
		await expect(as(ivan).broadcasts.testSend({ id })).rejects.toMatchObject({
			message: 'You have sent 5 tests in the last minute: try again in 12 seconds.'
		});
		await expect(as(ivan).broadcasts.testSend({ id })).rejects.toMatchObject({
			message: expect.stringContaining('You have sent 5 tests in the last minute')
		});
		w.clock.advance(12_000);
		await as(ivan).broadcasts.testSend({ id });

		// 6 so far; 24 more spread out over the day are allowed, the 31st is not.
		for (let i = 0; i < 24; i++) {
			w.clock.advance(60_000);
			await as(ivan).broadcasts.testSend({ id });
		}
		w.clock.advance(60_000);
		await expect(as(ivan).broadcasts.testSend({ id })).rejects.toMatchObject({
			message: expect.stringMatching(/^You have sent 30 tests in the last day: try again in \d+ minutes\.$/)
		});
		const audit = await w.db.auditLog.groupBy({
			by: ['action'],
			where: { action: { startsWith: 'broadcast_test' } },
			_count: { _all: true }
		});
		expect(Object.fromEntries(audit.map((a) => [a.action, a._count._all]))).toEqual({
			broadcast_test_send: 30,
			broadcast_test_refused: 3
		});
		const limited = await w.db.auditLog.findFirst({
			where: { action: 'broadcast_test_refused' },
			orderBy: { id: 'desc' }
		});
		expect(JSON.parse(limited!.details!)).toMatchObject({ reason: 'rate_limited', per: 'day' });
	});
});
