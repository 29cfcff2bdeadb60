import { afterEach, describe, expect, it } from 'vitest';
import { RuntimeSettings, RUNTIME_SETTINGS_TTL_MS } from '../../src/lib/server/settings/runtime-settings.ts';
import { guestText } from '../../src/lib/i18n/guest-flow.ts';
import { leadsInForce } from '../../src/worker/tasks/leads-deps.ts';
import { publishPendingLeads } from '../../src/worker/tasks/leads-publish.ts';
import { consoleCaller, insertOperator, startConsoleWorld, testConfig } from './console-fixtures.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { addLead, ADMIN, GROUP, startLeadsWorld, type LeadsWorld } from './leads-world.ts';
import { newGuest, startGuestWorld, startSession, type GuestWorld } from './guest-harness.ts';

/**
 * The console's Settings page through its router: the owner only, every change audited with the
 * value before and after, and each setting's effect reaching the worker's and the bot's code
 * without a restart (within the readers' cache period, moved on the FakeClock).
 */
describe('console settings', () => {
	const tempDir = useTempDir('console-settings-');
	const closers: (() => Promise<void>)[] = [];
	afterEach(async () => {
		for (const close of closers.splice(0)) await close();
	});

	it('is the owner’s alone: an operator and a viewer can neither read nor change a setting', async () => {
		const world = await startConsoleWorld(tempDir());
		closers.push(() => world.db.$disconnect());
		for (const caller of [world.callerFor(world.ivan), world.callerFor(world.vera)]) {
			await expect(caller.settings.list()).rejects.toMatchObject({ code: 'FORBIDDEN' });
			await expect(caller.settings.set({ name: 'packsPerGuest', text: '5' })).rejects.toMatchObject({
				code: 'FORBIDDEN'
			});
			await expect(caller.settings.reset({ name: 'packsPerGuest' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
		}
		expect(await world.db.setting.count({ where: { key: { startsWith: 'runtime.' } } })).toBe(0);
		expect(await world.db.auditLog.count({ where: { action: { in: ['setting_change', 'setting_reset'] } } })).toBe(0);
	});

	it('shows each value with its origin, refuses a wrong one with a sentence, audits set and reset with before and after', async () => {
		const world = await startConsoleWorld(tempDir());
		closers.push(() => world.db.$disconnect());
		const packs = async () =>
			(await world.callerFor(world.owner).settings.list()).fields.find((f) => f.name === 'packsPerGuest');
		expect(await packs()).toMatchObject({ text: '1', origin: 'environment', env: 'PACKS_PER_GUEST', group: 'guests' });

		await expect(
			world.callerFor(world.owner).settings.set({ name: 'packsPerGuest', text: 'lots' })
		).rejects.toMatchObject({ code: 'BAD_REQUEST', message: 'Packs per guest: Enter a whole number from 1 to 100.' });
		await expect(
			world.callerFor(world.owner).settings.set({ name: 'salesGroupChatId', text: 'sales team' })
		).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('chat id') });
		await expect(
			world.callerFor(world.owner).settings.set({ name: 'imageProvider', text: 'gemini' })
		).rejects.toMatchObject({ message: expect.stringContaining('Gemini needs an API key') });

		expect(await world.callerFor(world.owner).settings.set({ name: 'packsPerGuest', text: ' 3 ' })).toEqual({
			changed: true,
			before: '1',
			after: '3'
		});
		expect(await world.callerFor(world.owner).settings.set({ name: 'packsPerGuest', text: '3' })).toEqual({
			changed: false,
			value: '3'
		});
		expect(await packs()).toMatchObject({ text: '3', origin: 'console', setBy: 'olga' });
		expect(await world.callerFor(world.owner).settings.reset({ name: 'packsPerGuest' })).toEqual({
			reset: true,
			value: '1'
		});
		expect(await world.callerFor(world.owner).settings.reset({ name: 'packsPerGuest' })).toEqual({
			reset: false,
			value: '1'
		});
		expect(await packs()).toMatchObject({ text: '1', origin: 'environment' });

		const audit = await world.db.auditLog.findMany({
			where: { action: { in: ['setting_change', 'setting_reset'] } },
			orderBy: { id: 'asc' }
		});
		expect(audit.map((row) => [row.action, row.actor, JSON.parse(row.details ?? '{}')])).toEqual([
			['setting_change', 'olga', { setting: 'packsPerGuest', before: '1', beforeFrom: 'environment', after: '3' }],
			['setting_reset', 'olga', { setting: 'packsPerGuest', before: '3', after: '1', afterFrom: 'environment' }]
		]);
	});

	it('a changed sales group gets the next lead card, without a restart', async () => {
		const world: LeadsWorld = await startLeadsWorld(tempDir());
		closers.push(() => world.close());
		const runtime = new RuntimeSettings({ db: world.db, clock: world.clock, config: world.config });
		const owner = consoleCaller(
			world.db,
			world.clock,
			world.dir,
			await insertOperator(world.db, world.clock, 'olga', 'owner')
		);

		await addLead(world, { name: 'Before' });
		expect(await publishPendingLeads(await leadsInForce(world.deps, runtime))).toBe(1);

		// The new "group": the admin's own chat (the emulator has one group), opened by the admin's /start.
		await world.emulator.control.sendUserMessage({ user_id: ADMIN.id, text: '/start' });
		await owner.settings.set({ name: 'salesGroupChatId', text: String(ADMIN.id) });
		world.clock.advance(RUNTIME_SETTINGS_TTL_MS);
		await addLead(world, { name: 'After' });
		const posted = await publishPendingLeads(await leadsInForce(world.deps, runtime));
		expect([
			posted,
			(await world.db.lead.findMany({ select: { publishError: true } })).map((l) => l.publishError)
		]).toEqual([1, [null, null]]);

		const cardsIn = async (chat: number) =>
			(await world.emulator.control.chatMessages(chat)).filter((m) => m.from_bot).map((m) => m.text ?? '');
		expect((await cardsIn(GROUP)).filter((t) => t.includes('Before'))).toHaveLength(1);
		expect((await cardsIn(GROUP)).filter((t) => t.includes('After'))).toHaveLength(0);
		expect((await cardsIn(ADMIN.id)).filter((t) => t.includes('After'))).toHaveLength(1);
		const rows = await world.db.lead.findMany({ orderBy: { id: 'asc' }, select: { chatId: true } });
		expect(rows.map((r) => r.chatId)).toEqual([BigInt(GROUP), BigInt(ADMIN.id)]);
	});

	it('a raised pack limit lets a guest with a pack make another at the next /start, the bot unrestarted', async () => {
		const world: GuestWorld = await startGuestWorld(tempDir());
		closers.push(() => world.close());
		const owner = consoleCaller(
			world.db,
			world.clock,
			world.dir,
			await insertOperator(world.db, world.clock, 'olga', 'owner')
		);
		const guest = await newGuest(world);
		const now = world.clock.now().toISOString();
		const id = BigInt(guest.id);
		await world.db.user.create({
			data: { telegramUserId: id, firstName: 'Aziza', consentedAt: now, packName: 'aziza_by_bot', createdAt: now }
		});
		await world.db.session.create({
			data: {
				sessionToken: 'done-one',
				telegramUserId: id,
				status: 'photo_taken',
				templateId: 'wizard',
				createdAt: now,
				updatedAt: now
			}
		});
		await world.db.job.create({
			data: {
				telegramUserId: id,
				sessionToken: 'done-one',
				photoPath: 'sessions/done-one/selfie.jpg',
				templateId: 'wizard',
				status: 'done',
				createdAt: now,
				updatedAt: now
			}
		});

		const refused = await startSession(world);
		await guest.send(`/start ${refused}`);
		await guest.waitFor((m) => (m.text ?? '').includes('t.me/addstickers/aziza_by_bot'));
		expect((await world.db.session.findUniqueOrThrow({ where: { sessionToken: refused } })).notice).toBe('pack_ready');

		await owner.settings.set({ name: 'packsPerGuest', text: '2' });
		world.clock.advance(RUNTIME_SETTINGS_TTL_MS);
		const allowed = await startSession(world);
		await guest.send(`/start ${allowed}`);
		await guest.waitFor((m) =>
			m.buttons.flat().some((b) => b.callback_data === `gc:${allowed}` || b.callback_data?.startsWith('go:') === true)
		);
		const row = await world.db.session.findUniqueOrThrow({ where: { sessionToken: allowed } });
		expect(row.notice).toBeNull();
		expect(['linked', 'consented']).toContain(row.status);
	});

	it('a guest whose Telegram language is none of ours is spoken to in the default language set on the console', async () => {
		const world: GuestWorld = await startGuestWorld(tempDir());
		closers.push(() => world.close());
		const owner = consoleCaller(
			world.db,
			world.clock,
			world.dir,
			await insertOperator(world.db, world.clock, 'olga', 'owner')
		);
		await owner.settings.set({ name: 'defaultLanguage', text: 'uz' });
		world.clock.advance(RUNTIME_SETTINGS_TTL_MS);
		const guest = await newGuest(world, 'de', 'Jonas');
		const token = await startSession(world);
		await guest.send(`/start ${token}`);
		const prompt = await guest.waitFor((m) => m.buttons.flat().some((b) => b.callback_data === `gc:${token}`));
		expect(prompt.text).toBe(guestText('uz', 'consentPrompt', { name: 'Jonas' }));
		// The worker's later notices read the stored language: the default, not English.
		expect(
			await world.db.guestLanguage.findUnique({ where: { telegramUserId: BigInt(guest.id) }, select: { locale: true } })
		).toEqual({ locale: 'uz' });
	});

	it('reads through a short cache: a change is seen after the cache period, and an unreadable row falls back to the environment', async () => {
		const world = await startConsoleWorld(tempDir());
		closers.push(() => world.db.$disconnect());
		const config = testConfig(world.dir);
		const runtime = new RuntimeSettings({ db: world.db, clock: world.clock, config });
		expect((await runtime.read()).workerSlots).toBe(config.WORKER_SLOTS);
		await world.callerFor(world.owner).settings.set({ name: 'workerSlots', text: '7' });
		expect((await runtime.read()).workerSlots).toBe(config.WORKER_SLOTS);
		world.clock.advance(RUNTIME_SETTINGS_TTL_MS);
		expect((await runtime.read()).workerSlots).toBe(7);
		await world.db.setting.update({
			where: { key: 'runtime.workerSlots' },
			data: { value: '{"text":"99","by":"x","at":"y"}' }
		});
		world.clock.advance(RUNTIME_SETTINGS_TTL_MS);
		expect((await runtime.read()).workerSlots).toBe(config.WORKER_SLOTS);
	});
});
