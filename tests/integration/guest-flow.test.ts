import { describe, expect, it } from 'vitest';
import { findJobMessage } from '../../src/lib/server/jobs/job-messages.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { uploadSelfie } from '../../src/lib/server/kiosk/photo-upload.ts';
import { readKioskSessionView } from '../../src/lib/server/kiosk/kiosk-session.ts';
import { BotBudget } from '../../src/lib/server/telegram/bot-budget.ts';
import { ChatCooldown } from '../../src/lib/server/telegram/flood-control.ts';
import { deliverGuestNotices } from '../../src/lib/server/jobs/guest-notice-outbox.ts';
import {
	eventually,
	guestReachesOutfit,
	newGuest,
	sessionRow,
	useGuestWorlds,
	startSession,
	uploadDeps,
	type GuestWorld
} from './guest-harness.ts';
import { selfieJpeg, streamOf } from './guest-photos.ts';

describe('the guest flow through the real bot and the emulator', () => {
	const startWorld = useGuestWorlds('guest-flow-');
	let world: GuestWorld;

	it('links, asks consent, shows the outfits with a preview picture, records the choice, queues the job and says "Generating…"', async () => {
		world = await startWorld();
		const token = await startSession(world);
		const guest = await newGuest(world, 'ru', 'Dilnoza');
		await guest.send(`/start ${token}`);
		const prompt = await guest.waitFor((m) => m.buttons.length > 0);
		expect(prompt.text).toContain('Dilnoza');
		expect(prompt.text).toMatch(/приватност/);
		expect((await sessionRow(world, token)).status).toBe('linked');
		const user = await world.db.user.findUniqueOrThrow({ where: { telegramUserId: BigInt(guest.id) } });
		expect(user.firstName).toBe('Dilnoza');
		expect(user.consentedAt).toBeNull();

		await guest.press(prompt.message_id, `gc:${token}`);
		const catalogue = await guest.waitFor((m) => m.photo !== undefined);
		expect(catalogue.photo?.width).toBeGreaterThan(600);
		const buttons = catalogue.buttons.flat();
		expect(buttons.length).toBeGreaterThanOrEqual(6);
		expect(buttons.map((b) => b.text).join(' ')).toContain('Волшебник');
		expect(buttons.every((b) => Buffer.byteLength(b.callback_data ?? '') <= 64)).toBe(true);
		expect((await sessionRow(world, token)).status).toBe('consented');
		expect(
			(await world.db.user.findUniqueOrThrow({ where: { telegramUserId: BigInt(guest.id) } })).consentedAt
		).not.toBeNull();

		await guest.press(catalogue.message_id, `go:wizard:${token}`);
		await guest.waitFor((m) => /Волшебник/.test(m.text ?? '') && /киоск/.test(m.text ?? ''));
		const chosen = await sessionRow(world, token);
		expect([chosen.status, chosen.templateId]).toEqual(['template_chosen', 'wizard']);
		expect((await readKioskSessionView(world.deps, world.kiosk.id, token))?.status).toBe('template_chosen');

		const outcome = await uploadSelfie(uploadDeps(world), world.kiosk.id, token, streamOf(await selfieJpeg()), null);
		expect(outcome.kind).toBe('enqueued');
		const job = await world.db.job.findFirstOrThrow({ where: { sessionToken: token } });
		expect(job).toMatchObject({
			status: 'queued',
			attempts: 0,
			templateId: 'wizard',
			telegramUserId: BigInt(guest.id),
			createdAt: world.clock.now().toISOString()
		});
		expect((await sessionRow(world, token)).status).toBe('photo_taken');

		// Queued with the job, in the upload's transaction: the outbox has it before any worker looks.
		expect(
			await world.db.guestNotice.findMany({ where: { jobId: job.jobId }, select: { kind: true, state: true } })
		).toEqual([{ kind: 'generating', state: 'queued' }]);
		const notices = {
			db: world.db,
			clock: world.clock,
			logger: silentLogger,
			api: world.bot.api,
			cooldown: new ChatCooldown(),
			budget: new BotBudget(world.db, world.clock, 'test'),
			slots: 2,
			leaseMs: 30_000
		};
		await deliverGuestNotices(notices);
		await deliverGuestNotices(notices); // a second pass sends nothing more
		const generating = await guest.waitFor((m) => /Рисуем ваши стикеры/.test(m.text ?? ''));
		expect(generating.text).toMatch(/№1 в очереди/);
		const recorded = await findJobMessage(world.db, job.jobId, 'generating');
		expect(recorded).toMatchObject({
			chatId: BigInt(guest.id),
			messageId: BigInt(generating.message_id),
			shownText: generating.text
		});
		expect(await world.db.guestNotice.findFirstOrThrow({ where: { jobId: job.jobId } })).toMatchObject({
			state: 'sent',
			attempts: 1,
			messageId: BigInt(generating.message_id)
		});
		expect((await guest.messages()).filter((m) => /Рисуем/.test(m.text ?? ''))).toHaveLength(1);
	});

	it('skips the consent question for a guest who consented before, and the kiosk view never names the guest', async () => {
		world = await startWorld();
		const guest = await newGuest(world);
		const first = await startSession(world);
		await guestReachesOutfit(world, guest, first);
		await world.db.session.update({
			where: { sessionToken: first },
			data: { status: 'expired', closedReason: 'cancel' }
		});

		const second = await startSession(world);
		await guest.send(`/start ${second}`);
		await eventually(
			() => sessionRow(world, second),
			(s) => s.status === 'consented'
		);
		const catalogues = await eventually(
			() => guest.messages(),
			(all) => all.filter((m) => m.photo).length === 2
		);
		expect(catalogues.filter((m) => /privacy/.test(m.text ?? '')).length).toBe(1);
		// The catalogue picture was uploaded once; the second guest view got it again by file_id.
		const pictures = catalogues.filter((m) => m.photo).map((m) => m.photo?.file_id);
		expect(pictures[1]).toBe(pictures[0]);
		expect(await world.db.mediaFile.findMany({ select: { kind: true, telegramFileId: true } })).toEqual([
			{ kind: 'catalogue', telegramFileId: pictures[0] }
		]);
		const view = await readKioskSessionView(world.deps, world.kiosk.id, second);
		expect(JSON.stringify(view)).not.toContain('Aziza');
		expect(JSON.stringify(view)).not.toContain(String(guest.id));
	});
});
