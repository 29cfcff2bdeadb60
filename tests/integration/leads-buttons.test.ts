import { describe, expect, it } from 'vitest';
import { publishPendingLeads } from '../../src/worker/tasks/leads-publish.ts';
import {
	addLead,
	ADMIN,
	eventually,
	GROUP,
	groupMessages,
	useLeadsWorlds,
	STRANGER,
	type LeadsWorld
} from './leads-world.ts';
import { updatesHandled } from './guest-harness.ts';

describe('status buttons and /stickers_forget in the sales group', () => {
	const leads = useLeadsWorlds('leads-buttons-');
	let world: LeadsWorld;

	async function postedLead(): Promise<{ id: number; messageId: number }> {
		const id = await addLead(world, {
			name: 'Aziza',
			telegram: '@aziza_events',
			phone: '+998901234567',
			comment: 'Call after 6 pm'
		});
		await publishPendingLeads(world.deps);
		const lead = await world.db.lead.findUniqueOrThrow({ where: { id } });
		return { id, messageId: Number(lead.messageId) };
	}

	const press = (userId: number, messageId: number, data: string) =>
		world.emulator.control.pressButton({ user_id: userId, chat_id: GROUP, message_id: messageId, callback_data: data });
	const answerOf = (id: string) =>
		eventually(
			() => world.emulator.control.callbackQuery(id),
			(q) => q?.answered === true
		);

	it('an allowed admin sets a status: lead, history and the card (who set what) change; the same status again writes nothing', async () => {
		world = await leads.start();
		await leads.startBot(world);
		const { id, messageId } = await postedLead();

		const pressed = await press(ADMIN.id, messageId, `lead:${id}:in_work`);
		expect((await answerOf(pressed.callback_query_id))?.answer).toMatchObject({
			text: 'Статус: В работе',
			show_alert: false
		});
		const lead = await world.db.lead.findUniqueOrThrow({ where: { id } });
		expect(lead).toMatchObject({
			status: 'in_work',
			statusBy: BigInt(ADMIN.id),
			statusByName: 'Malika Karimova (@malika_sales)',
			statusAt: world.clock.now().toISOString()
		});
		expect(await world.db.leadStatusHistory.findMany({ where: { leadId: id } })).toMatchObject([
			{
				status: 'in_work',
				byUserId: BigInt(ADMIN.id),
				byName: 'Malika Karimova (@malika_sales)',
				at: world.clock.now().toISOString()
			}
		]);
		const card = await eventually(
			async () => (await groupMessages(world))[0],
			(m) => m?.edited === true
		);
		expect(card?.text).toContain('Статус: В работе — поставил(а) Malika Karimova (@malika_sales)');
		expect(card?.buttons.flat().find((b) => b.callback_data === `lead:${id}:in_work`)?.text).toMatch(/^● /);

		world.clock.advance(60_000);
		const again = await press(ADMIN.id, messageId, `lead:${id}:in_work`);
		expect((await answerOf(again.callback_query_id))?.answer?.text).toBe('Статус уже: В работе');
		expect(await world.db.leadStatusHistory.count({ where: { leadId: id } })).toBe(1);
		expect((await world.db.lead.findUniqueOrThrow({ where: { id } })).statusAt).toBe(lead.statusAt);

		// The same update delivered twice has one effect.
		const deal = await press(ADMIN.id, messageId, `lead:${id}:deal`);
		await answerOf(deal.callback_query_id);
		await world.emulator.control.replayUpdate(deal.update_id);
		await updatesHandled(world);
		expect(
			(await world.db.leadStatusHistory.findMany({ where: { leadId: id }, orderBy: { id: 'asc' } })).map(
				(h) => h.status
			)
		).toEqual(['in_work', 'deal']);
	});

	it('a stranger is told they may not, and nothing is written', async () => {
		world = await leads.start();
		await leads.startBot(world);
		const { id, messageId } = await postedLead();
		const pressed = await press(STRANGER.id, messageId, `lead:${id}:spam`);
		expect((await answerOf(pressed.callback_query_id))?.answer).toMatchObject({
			text: 'Only lead admins may change lead statuses.',
			show_alert: true
		});
		expect(await world.db.lead.findUniqueOrThrow({ where: { id } })).toMatchObject({
			status: 'new',
			statusBy: null,
			statusAt: null
		});
		expect(await world.db.leadStatusHistory.count()).toBe(0);
		expect((await groupMessages(world))[0]?.edited).toBe(false);
	});

	it('/stickers_forget from an admin erases at once and tells about backups; from anyone else it is refused', async () => {
		world = await leads.start();
		await leads.startBot(world);
		const { id } = await postedLead();
		const say = (userId: number, text: string) =>
			world.emulator.control.sendUserMessage({ user_id: userId, chat_id: GROUP, text });
		const reply = (re: RegExp) =>
			world.emulator.control.waitForMessage(GROUP, (m) => m.from_bot && re.test(m.text ?? ''));

		await say(STRANGER.id, `/stickers_forget ${id}`);
		await reply(/Only lead admins may erase leads\./);
		expect((await world.db.lead.findUniqueOrThrow({ where: { id } })).erasedAt).toBeNull();

		await say(ADMIN.id, `/stickers_forget ${id}`);
		const done = await reply(/имя, Telegram, телефон, комментарий и хеш IP удалены/);
		expect(done.text).toContain('(14 дней)');
		const lead = await world.db.lead.findUniqueOrThrow({ where: { id } });
		expect(lead).toMatchObject({
			name: null,
			telegram: null,
			phone: null,
			comment: null,
			ipHash: null,
			status: 'new',
			erasedAt: world.clock.now().toISOString()
		});
		const card = await eventually(
			async () => (await groupMessages(world))[0],
			(m) => m?.edited === true
		);
		expect(card?.text).toContain('Контактные данные удалены');
		expect(card?.text).not.toContain('+998901234567');
		expect(card?.text).not.toContain('@aziza_events');

		await say(ADMIN.id, '/stickers_forget 9999');
		await reply(/Заявки #9999 нет/);
		await say(ADMIN.id, '/stickers_forget');
		await reply(/Как пользоваться: \/stickers_forget/);
	});
});
