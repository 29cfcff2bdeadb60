import { describe, expect, it } from 'vitest';
import { claimDelayNotice } from '../../src/lib/server/jobs/job.repository.ts';
import { claimNextJob } from '../../src/lib/server/jobs/job-claims.repository.ts';
import { recordStage } from '../../src/lib/server/jobs/job-progress.ts';
import {
	DEFAULT_JOB_SECONDS,
	readActiveQueue,
	readSessionQueuePosition,
	readTypicalJobSeconds
} from '../../src/lib/server/jobs/queue-position.ts';
import { createLogger } from '../../src/lib/server/log/logger.ts';
import { BOT_LIMITS, BotBudget } from '../../src/lib/server/telegram/bot-budget.ts';
import { EditPacer } from '../../src/lib/server/telegram/edit-pacer.ts';
import { ChatCooldown } from '../../src/lib/server/telegram/flood-control.ts';
import { deliverGuestNotices } from '../../src/lib/server/jobs/guest-notice-outbox.ts';
import { refreshGuestStatuses, type GuestStatusDeps } from '../../src/lib/server/jobs/guest-status.ts';
import { FakeClock, HOUR, MINUTE, SECOND } from '../../src/lib/server/time/clock.ts';
import { noticeDepsFor, useGenerationWorld, type GenerationWorld } from './generation-harness.ts';

/**
 * The guest's status message follows the queue: one message, edited (never a new one) from
 * "#3" to "#2" to "#1" to the drawing stages, no more often than once every 5 s per guest; the
 * estimate is the median photo-to-link time of the last hour.
 */
describe('a live place in the queue', () => {
	const worlds = useGenerationWorld('guest-status-');

	async function addGuest(world: GenerationWorld, name: string): Promise<number> {
		const guest = await world.emulator.control.createUser({ first_name: name, language_code: 'en' });
		await world.emulator.control.sendUserMessage({ user_id: guest.id, text: '/start' });
		const now = new Date().toISOString();
		await world.db.user.create({
			data: { telegramUserId: BigInt(guest.id), firstName: name, consentedAt: now, createdAt: now }
		});
		return guest.id;
	}

	function statusDeps(world: GenerationWorld, clock: FakeClock): GuestStatusDeps {
		return {
			db: world.db,
			clock,
			logger: createLogger('test', 'silent'),
			api: world.api,
			slots: 1,
			pacer: new EditPacer(new BotBudget(world.db, clock, 'test')),
			cooldown: new ChatCooldown()
		};
	}

	const botMessages = async (world: GenerationWorld, guestId: number) =>
		(await world.emulator.control.chatMessages(guestId)).filter((m) => m.from_bot);

	it('#3 → #2 → #1 → drawing, as edits of one message, at most once every 5 s', async () => {
		const world = await worlds.open();
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const first = await world.queueJob({ createdAt: clock.now(), guestId: await addGuest(world, 'Ahead1') });
		clock.advance(SECOND);
		await world.queueJob({ createdAt: clock.now(), guestId: await addGuest(world, 'Ahead2') });
		clock.advance(SECOND);
		const mine = await world.queueJob({ createdAt: clock.now(), viaOutbox: true });
		expect(await deliverGuestNotices(noticeDepsFor(world, clock))).toBe(1);
		const status = statusDeps(world, clock);
		const shown = async () => {
			const messages = await botMessages(world, world.guestId);
			expect(messages).toHaveLength(1); // never a new message, only edits of the one
			return { text: messages[0]!.text ?? '', edits: messages[0]!.edit_count };
		};
		expect(await shown()).toMatchObject({ text: expect.stringMatching(/#3 in the queue, about 5 min/), edits: 0 });

		// The first job is claimed: #2 — but not before 5 s have passed since the guest saw the message.
		await claimNextJob(world.db, clock, 'w1', MINUTE);
		await refreshGuestStatuses(status);
		expect(await shown()).toMatchObject({ text: expect.stringMatching(/#3 in the queue/), edits: 0 });
		clock.advance(5 * SECOND);
		await refreshGuestStatuses(status);
		expect(await shown()).toMatchObject({ text: expect.stringMatching(/#2 in the queue, about 3 min/), edits: 1 });

		// The job ahead is done and the next claimed at once: #1, shown 5 s after the last edit.
		await world.db.job.update({
			where: { jobId: first },
			data: { status: 'done', linkSentAt: clock.now().toISOString() }
		});
		await claimNextJob(world.db, clock, 'w1', MINUTE);
		clock.advance(2 * SECOND);
		await refreshGuestStatuses(status);
		expect((await shown()).edits).toBe(1);
		clock.advance(3 * SECOND);
		await refreshGuestStatuses(status);
		expect(await shown()).toMatchObject({ text: expect.stringMatching(/#1 in the queue/), edits: 2 });

		// Mine is claimed and drawing starts.
		await world.db.job.updateMany({
			where: { status: 'processing' },
			data: { status: 'done', linkSentAt: clock.now().toISOString() }
		});
		expect((await claimNextJob(world.db, clock, 'w1', MINUTE))?.jobId).toBe(mine);
		await recordStage(world.db, clock, mine, 'passport');
		clock.advance(5 * SECOND);
		await refreshGuestStatuses(status);
		expect(await shown()).toMatchObject({ text: '🎨 Looking at your photo…', edits: 3 });
		// Nothing changed: no call at all, however often the task runs.
		const edits = (await world.emulator.control.callCounts()).methods.editMessageText;
		clock.advance(10 * SECOND);
		await refreshGuestStatuses(status);
		expect((await world.emulator.control.callCounts()).methods.editMessageText).toBe(edits);
	});

	it('a guest who blocked the bot after "Generating…" and was marked by a notice’s 403 gets no more status edits', async () => {
		const world = await worlds.open();
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const jobId = await world.queueJob({ createdAt: clock.now(), viaOutbox: true });
		const notices = noticeDepsFor(world, clock);
		expect(await deliverGuestNotices(notices)).toBe(1);
		const status = statusDeps(world, clock);
		const editCalls = async () =>
			(await world.emulator.control.callCounts()).byChat[`editMessageText:${world.guestId}`] ?? 0;
		await claimNextJob(world.db, clock, 'w1', MINUTE);
		await recordStage(world.db, clock, jobId, 'passport');
		clock.advance(5 * SECOND);
		expect(await refreshGuestStatuses(status)).toBe(1);

		await world.emulator.control.setBlocked(world.guestId, true);
		clock.advance(BOT_LIMITS.perChatMs); // the edit and the notice share the bot's budget: one message every 1.2 s to a chat
		expect(await claimDelayNotice(world.db, jobId, clock.now().toISOString())).toBe(true);
		expect(await deliverGuestNotices(notices)).toBe(0); // 403: the guest is marked
		expect(await world.db.guestBotBlock.count({ where: { telegramUserId: BigInt(world.guestId) } })).toBe(1);
		for (const stage of ['anchor', 'sheet', 'qa'] as const) {
			await recordStage(world.db, clock, jobId, stage);
			clock.advance(5 * SECOND);
			expect(await refreshGuestStatuses(status)).toBe(0);
		}
		expect(await editCalls()).toBe(1);
	});

	it('the estimate is the median photo-to-link time of the last hour, 90 s with no history; the kiosk reads the same numbers', async () => {
		const world = await worlds.open();
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		expect(await readTypicalJobSeconds(world.db, clock)).toBe(DEFAULT_JOB_SECONDS);
		const delivered = async (minutesAgo: number, seconds: number) => {
			const linkSentAt = new Date(clock.now().getTime() - minutesAgo * MINUTE);
			const createdAt = new Date(linkSentAt.getTime() - seconds * SECOND).toISOString();
			await world.db.job.create({
				data: {
					telegramUserId: 1n,
					sessionToken: `s${minutesAgo}`,
					photoPath: 'x',
					templateId: 't',
					status: 'done',
					createdAt,
					updatedAt: linkSentAt.toISOString(),
					linkSentAt: linkSentAt.toISOString()
				}
			});
		};
		await delivered(5, 40);
		await delivered(20, 60);
		await delivered(50, 200);
		await delivered(70, 900); // older than an hour: not counted
		expect(await readTypicalJobSeconds(world.db, clock)).toBe(60);
		await delivered(30, 80);
		expect(await readTypicalJobSeconds(world.db, clock)).toBe(70); // even count: the mean of the middle two
		clock.advance(50 * MINUTE); // only the job delivered 5 min ago (55 min now) is still inside the hour
		expect(await readTypicalJobSeconds(world.db, clock)).toBe(40);
		clock.advance(6 * MINUTE);
		expect(await readTypicalJobSeconds(world.db, clock)).toBe(DEFAULT_JOB_SECONDS);

		// Two queued jobs on one slot: the second is #2, two job times away — for the kiosk and the bot alike.
		await delivered(1, 30);
		await world.queueJob({ createdAt: clock.now(), guestId: await addGuest(world, 'Ahead') });
		const mine = await world.queueJob({ createdAt: clock.now(), viaOutbox: true });
		const job = await world.db.job.findUniqueOrThrow({ where: { jobId: mine } });
		expect(await readSessionQueuePosition({ db: world.db, clock, slots: 1 }, job.sessionToken)).toEqual({
			position: 2,
			etaSeconds: 60,
			status: 'queued'
		});
		expect(await deliverGuestNotices(noticeDepsFor(world, clock))).toBe(1);
		const [status] = await botMessages(world, world.guestId);
		expect(status?.text).toMatch(/#2 in the queue, about 60 s/);
	});

	it('each event hears its own times: the median of its latest deliveries, before the last hour of every event', async () => {
		const world = await worlds.open();
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		let n = 0;
		const delivered = async (eventId: number, hoursAgo: number, seconds: number) => {
			const linkSentAt = new Date(clock.now().getTime() - hoursAgo * HOUR);
			const createdAt = new Date(linkSentAt.getTime() - seconds * SECOND).toISOString();
			const job = await world.db.job.create({
				data: {
					telegramUserId: 1n,
					sessionToken: `e${n++}`,
					photoPath: 'x',
					templateId: 't',
					status: 'done',
					createdAt,
					updatedAt: linkSentAt.toISOString(),
					linkSentAt: linkSentAt.toISOString()
				}
			});
			await world.db.jobSnapshot.create({
				data: { jobId: job.jobId, eventId, catalogueVersion: 1, outfitJson: '{}', createdAt }
			});
		};
		// Event 1 runs on a fast provider (packs in 4–6 s, yesterday's too); event 2 is slow and busy now.
		for (const [hoursAgo, seconds] of [
			[30, 6],
			[2, 4],
			[0.1, 4]
		] as const)
			await delivered(1, hoursAgo, seconds);
		for (const seconds of [100, 120, 140]) await delivered(2, 0.2, seconds);
		expect(await readTypicalJobSeconds(world.db, clock, 1)).toBe(4);
		expect(await readTypicalJobSeconds(world.db, clock, 2)).toBe(120);
		// An event with no delivery yet reads the last hour of every event (4, 100, 120, 140): 110.
		expect(await readTypicalJobSeconds(world.db, clock, 3)).toBe(110);
		expect(await readTypicalJobSeconds(world.db, clock)).toBe(110);

		// One slot, two queued jobs: each place is counted in the one queue, each time in its own event's.
		const fast = await world.queueJob({ createdAt: clock.now(), guestId: await addGuest(world, 'Fast') });
		const slow = await world.queueJob({ createdAt: clock.now() });
		for (const [jobId, eventId] of [
			[fast, 1],
			[slow, 2]
		] as const)
			await world.db.jobSnapshot.create({
				data: { jobId, eventId, catalogueVersion: 1, outfitJson: '{}', createdAt: clock.now().toISOString() }
			});
		const queue = await readActiveQueue({ db: world.db, clock, slots: 1 });
		expect(queue.get(fast)).toEqual({ position: 1, etaSeconds: 5, status: 'queued' }); // 4 s, never promised below 5
		expect(queue.get(slow)).toEqual({ position: 2, etaSeconds: 240, status: 'queued' });
	});
});
