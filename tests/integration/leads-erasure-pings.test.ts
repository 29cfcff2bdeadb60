import { describe, expect, it } from 'vitest';
import { eraseLead } from '../../src/lib/server/leads/lead-erasure.ts';
import { receiveLead } from '../../src/lib/server/leads/lead-intake.ts';
import { HOUR, MINUTE } from '../../src/lib/server/time/clock.ts';
import { applyPendingCardEdits } from '../../src/worker/tasks/leads-cards.ts';
import { publishPendingLeads } from '../../src/worker/tasks/leads-publish.ts';
import { notifyPendingRepeats } from '../../src/worker/tasks/leads-repeats.ts';
import { ADMIN, eventually, GROUP, groupMessages, useLeadsWorlds, submission, type LeadsWorld } from './leads-world.ts';

/**
 * An erased lead leaves nothing of the organiser in the sales group: not the card, and not the
 * repeat pings under it, which quote the repeat's phone, @username and comment.
 */
describe('erasing a lead reaches its repeat pings in the sales group', () => {
	const leads = useLeadsWorlds('leads-erasure-pings-');
	let world: LeadsWorld;

	const PERSONAL = [
		'+998901234567',
		'+998907777777',
		'@aziza_events',
		'@aziza_second',
		'Wedding at Hyatt',
		'Call my assistant'
	];

	/** A posted lead and, an hour later, a repeat with a new phone and comment (its ping not sent yet). */
	async function leadWithRepeat(): Promise<number> {
		const first = await receiveLead(
			world,
			submission({ telegram: '@aziza_events', phone: '+998901234567', comment: 'Wedding at Hyatt' })
		);
		if (first.outcome !== 'lead') throw new Error('expected a lead');
		await publishPendingLeads(world.deps);
		world.clock.advance(HOUR);
		await receiveLead(
			world,
			submission({ telegram: '@aziza_events', phone: '+998907777777', comment: 'Call my assistant' })
		);
		return first.leadId;
	}

	/** A posted lead and two pings under its card, each quoting new contact details. */
	async function leadWithPings(): Promise<number> {
		const leadId = await leadWithRepeat();
		world.clock.advance(MINUTE);
		await receiveLead(
			world,
			submission({ telegram: '@aziza_second', phone: '+998901234567', comment: 'Wedding at Hyatt' })
		);
		expect(await notifyPendingRepeats(world.deps)).toBe(2);
		await applyPendingCardEdits(world.deps);
		const texts = await groupText();
		expect(texts).toContain('+998907777777');
		expect(texts).toContain('@aziza_second');
		return leadId;
	}

	const groupText = async () => (await groupMessages(world)).map((m) => m.text ?? '').join('\n');

	it('/stickers_forget edits the card and every ping to the erased text', async () => {
		world = await leads.start();
		const id = await leadWithPings();
		const pings = await world.db.leadRepeat.findMany({ where: { leadId: id } });
		expect(pings.every((ping) => ping.pingMessageId !== null)).toBe(true);

		await leads.startBot(world);
		await world.emulator.control.sendUserMessage({ user_id: ADMIN.id, chat_id: GROUP, text: `/stickers_forget ${id}` });
		await world.emulator.control.waitForMessage(GROUP, (m) => m.from_bot && /хеш IP удалены/.test(m.text ?? ''));
		const text = await eventually(groupText, (all) => !PERSONAL.some((value) => all.includes(value)));
		for (const value of PERSONAL) expect(text).not.toContain(value);
		const edited = (await groupMessages(world)).filter((m) => m.text?.startsWith('🔁'));
		expect(edited).toHaveLength(2);
		for (const ping of edited)
			expect(ping.text).toMatch(new RegExp(`^🔁 Повторная заявка по #stickers_${id}\\n🔒 Контактные данные удалены`));
		expect(await world.db.leadRepeat.count({ where: { leadId: id, pingMessageId: { not: null } } })).toBe(0);
	});

	it('a ping edit that fails is retried by the card-edit task after a restart', async () => {
		world = await leads.start();
		const id = await leadWithPings();
		await world.emulator.control.injectFault({ method: 'editMessageText', kind: '5xx', times: 2 });
		await eraseLead(world, id);
		expect(await applyPendingCardEdits(world.deps)).toBe(0);
		expect(await world.db.leadCardEdit.count({ where: { leadId: id } })).toBe(1);
		expect(await groupText()).toContain('+998907777777');

		await world.restart();
		world.clock.advance(HOUR);
		let passes = 0;
		while ((await world.db.leadCardEdit.count()) > 0 && passes++ < 5) {
			await applyPendingCardEdits(world.deps);
			world.clock.advance(HOUR);
		}
		const text = await groupText();
		for (const value of PERSONAL) expect(text).not.toContain(value);
		expect(await world.db.leadRepeat.count({ where: { leadId: id, pingMessageId: { not: null } } })).toBe(0);
	});

	it('a ping sent while the lead was being erased is scrubbed too', async () => {
		world = await leads.start();
		const leadId = await leadWithRepeat();
		// The ping task read the repeat before the erasure and sends it after: its details were loaded already.
		const api = world.deps.api;
		const sendMessage = api.sendMessage.bind(api);
		let erased = false;
		world.deps.api.sendMessage = (async (...args: Parameters<typeof sendMessage>) => {
			if (!erased) {
				erased = true;
				await eraseLead(world, leadId);
			}
			return sendMessage(...args);
		}) as typeof sendMessage;
		expect(await notifyPendingRepeats(world.deps)).toBe(1);
		world.deps.api.sendMessage = sendMessage;
		await applyPendingCardEdits(world.deps);
		const text = await groupText();
		for (const value of PERSONAL) expect(text).not.toContain(value);
	});
});
