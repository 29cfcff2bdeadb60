import { describe, expect, it } from 'vitest';
import { BOT_LIMITS } from '../../src/lib/server/telegram/bot-budget.ts';
import { enqueueJob, failJobPastDeadline } from '../../src/lib/server/jobs/job.repository.ts';
import { findJobMessage } from '../../src/lib/server/jobs/job-messages.ts';
import { deliverGuestNotices } from '../../src/lib/server/jobs/guest-notice-outbox.ts';
import { FakeClock, SECOND } from '../../src/lib/server/time/clock.ts';
import { noticeDepsFor, useGenerationWorld, type GenerationWorld } from './generation-harness.ts';
import { eventually } from './guest-harness.ts';

/**
 * The guest notices outbox against the emulator with injected faults, on a fake clock: every
 * notice reaches the guest at least once, retries honour 429's retry_after, and a guest who
 * blocked the bot is marked after one call and never called again.
 */
describe('the guest notices outbox', () => {
	const worlds = useGenerationWorld('guest-notices-');
	const GENERATING = /Generating your stickers/;

	const botTexts = async (world: GenerationWorld) =>
		(await world.emulator.control.chatMessages(world.guestId)).filter((m) => m.from_bot).map((m) => m.text ?? '');
	const sendsToGuest = async (world: GenerationWorld) =>
		(await world.emulator.control.callCounts()).byChat[`sendMessage:${world.guestId}`] ?? 0;
	const noticeOf = (world: GenerationWorld, jobId: number, kind = 'generating') =>
		world.db.guestNotice.findFirstOrThrow({ where: { jobId, kind } });

	it('429 with retry_after, a 500, a dropped connection and a timeout: retried on the outbox schedule, then delivered and recorded', async () => {
		const world = await worlds.open();
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const notices = noticeDepsFor(world, clock, { timeoutSeconds: 1 });
		const jobId = await world.queueJob({ createdAt: clock.now(), viaOutbox: true });
		const chat = world.guestId;

		await world.emulator.control.injectFault({ method: 'sendMessage', chat_id: chat, kind: '429', retry_after: 7 });
		expect(await deliverGuestNotices(notices)).toBe(0);
		const afterFlood = await noticeOf(world, jobId);
		expect(afterFlood).toMatchObject({ state: 'queued', attempts: 1 });
		expect(afterFlood.nextAttemptAt).toBe('2026-03-01T10:00:07.000Z');
		clock.advance(7 * SECOND - 1);
		expect(await deliverGuestNotices(notices)).toBe(0);
		expect(await sendsToGuest(world)).toBe(1); // nothing called before retry_after ran out

		clock.advance(1);
		await world.emulator.control.injectFault({ method: 'sendMessage', chat_id: chat, kind: '5xx', status: 500 });
		expect(await deliverGuestNotices(notices)).toBe(0);
		await world.emulator.control.injectFault({ method: 'sendMessage', chat_id: chat, kind: 'drop' });
		clock.advance(60 * SECOND);
		expect(await deliverGuestNotices(notices)).toBe(0);
		expect(await noticeOf(world, jobId)).toMatchObject({ state: 'queued', attempts: 3 });
		expect(await botTexts(world)).toEqual([]);

		// A timeout: our client gives up after 1 s, but Telegram posts the message 2 s later anyway.
		await world.emulator.control.injectFault({ method: 'sendMessage', chat_id: chat, kind: 'delay', ms: 2_000 });
		clock.advance(60 * SECOND);
		expect(await deliverGuestNotices(notices)).toBe(0);
		expect(await noticeOf(world, jobId)).toMatchObject({
			state: 'queued',
			attempts: 4,
			error: "Network request for 'sendMessage' failed!"
		});
		clock.advance(60 * SECOND);
		expect(await deliverGuestNotices(notices)).toBe(1);

		const sent = await noticeOf(world, jobId);
		expect(sent).toMatchObject({ state: 'sent', attempts: 5 });
		const recorded = await findJobMessage(world.db, jobId, 'generating');
		expect(recorded?.messageId).toBe(sent.messageId);
		// The timed-out call lands when its 2 s are up: waited for, since a busy machine lands it later.
		const said = await eventually(
			async () => (await botTexts(world)).filter((t) => GENERATING.test(t)),
			(texts) => texts.length >= 2
		);
		// Delivered; the timed-out call that Telegram still posted is the plain send's duplicate window.
		expect(said).toHaveLength(2);
		expect(await deliverGuestNotices(notices)).toBe(0);
		expect(await sendsToGuest(world)).toBe(5);
	}, 30_000);

	it('two senders at once (two passes, or a pass and the job loop): each notice is claimed and sent once', async () => {
		const world = await worlds.open();
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const jobs = [
			await world.queueJob({ createdAt: clock.now(), viaOutbox: true }),
			await world.queueJob({ createdAt: clock.now(), viaOutbox: true })
		];
		const [a, b] = await Promise.all([
			deliverGuestNotices(noticeDepsFor(world, clock)),
			deliverGuestNotices(noticeDepsFor(world, clock))
		]);
		// A pass that got to both notices first met the chat's pacing (one message a second) at the
		// second and put it off by a second, not as an attempt: the next pass sends it.
		clock.advance(BOT_LIMITS.perChatMs); // the chat's spacing (1.2 s) has passed
		const later = await deliverGuestNotices(noticeDepsFor(world, clock));
		expect(a + b + later).toBe(2);
		expect((await botTexts(world)).filter((t) => GENERATING.test(t))).toHaveLength(2);
		for (const jobId of jobs) expect(await noticeOf(world, jobId)).toMatchObject({ state: 'sent', attempts: 1 });
	});

	it('a guest who blocked the bot: marked at the first 403, that notice ended, later notices recorded blocked without a call', async () => {
		const world = await worlds.open();
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const notices = noticeDepsFor(world, clock);
		await world.emulator.control.setBlocked(world.guestId, true);
		const jobId = await world.queueJob({ createdAt: clock.now(), viaOutbox: true });

		expect(await deliverGuestNotices(notices)).toBe(0);
		expect(await sendsToGuest(world)).toBe(1);
		expect(await noticeOf(world, jobId)).toMatchObject({ state: 'blocked', attempts: 1 });
		expect((await noticeOf(world, jobId)).error).toMatch(/blocked by the user/);
		const mark = await world.db.guestBotBlock.findUniqueOrThrow({ where: { telegramUserId: BigInt(world.guestId) } });
		expect(mark.blockedAt).toBe('2026-03-01T10:00:00.000Z');
		// Nothing to edit later: the status message is recorded as absent.
		expect((await findJobMessage(world.db, jobId, 'generating'))?.messageId).toBe(0n);

		clock.advance(30 * 60 * SECOND);
		expect(await deliverGuestNotices(notices)).toBe(0);
		expect((await failJobPastDeadline(world.db, clock, jobId, 'deadline')).won).toBe(true);
		expect(await deliverGuestNotices(notices)).toBe(0);
		expect(await noticeOf(world, jobId, 'deadline')).toMatchObject({
			state: 'blocked',
			attempts: 1,
			error: 'the guest has blocked the bot; not sent'
		});
		expect(await sendsToGuest(world)).toBe(1);
	});

	it('a notice exists only with the job change that caused it: a rolled-back enqueue leaves neither', async () => {
		const world = await worlds.open();
		const now = new Date().toISOString();
		const enqueue = world.db.$transaction(async (tx) => {
			await enqueueJob(tx, {
				telegramUserId: BigInt(world.guestId),
				sessionToken: 'rolled-back',
				photoPath: '/nowhere.jpg',
				templateId: 'tuxedo',
				now
			});
			throw new Error('the upload failed after the job was written');
		});
		await expect(enqueue).rejects.toThrow(/upload failed/);
		expect(await world.db.job.count()).toBe(0);
		expect(await world.db.guestNotice.count()).toBe(0);
	});
});
