import { afterEach, describe, expect, it } from 'vitest';
import { queueNewsQuestionOnce } from '../../src/lib/server/broadcasts/news-question.ts';
import { optOutOfBroadcasts } from '../../src/lib/server/broadcasts/opt-out.ts';
import { deliverGuestNotices } from '../../src/lib/server/jobs/guest-notice-outbox.ts';
import { FakeClock, MINUTE, SECOND, systemClock } from '../../src/lib/server/time/clock.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { createGenerationWorld, noticeDepsFor, type GenerationWorld } from './generation-harness.ts';

/**
 * The news question's own outbox rules, on the emulator: it is dropped unsent when the guest chose
 * before it went out (their /stop is the later word), and a question Telegram never showed (the
 * guest had blocked the bot) does not count as asked — their next pack asks again.
 */
describe('the news question in the notices outbox', () => {
	const tempDir = useTempDir('news-question-');
	let world: GenerationWorld | undefined;
	afterEach(async () => {
		await world?.close();
		world = undefined;
	});

	/** A delivered pack's commit, as sendLinkOnce makes it: the question queued with it, once per guest. */
	async function deliverPack(w: GenerationWorld): Promise<{ jobId: number; asked: boolean }> {
		const jobId = await w.queueJob({ viaOutbox: true });
		await w.db.guestNotice.updateMany({ where: { jobId, kind: 'generating' }, data: { state: 'sent' } });
		const now = new Date().toISOString();
		const asked = await w.db.$transaction((tx) =>
			queueNewsQuestionOnce(tx, { jobId, telegramUserId: BigInt(w.guestId) }, now)
		);
		return { jobId, asked };
	}

	const questionsIn = async (w: GenerationWorld) =>
		(await w.emulator.control.chatMessages(w.guestId)).filter(
			(m) => m.from_bot && m.text?.includes('would you like news')
		);

	it('is dropped unsent when the guest used /stop first, and they are not asked after a later pack', async () => {
		const w = (world = await createGenerationWorld(tempDir()));
		const { jobId, asked } = await deliverPack(w);
		expect(asked).toBe(true);
		await optOutOfBroadcasts(w.db, systemClock, BigInt(w.guestId), 'stop', 'en');
		await deliverGuestNotices(noticeDepsFor(w, systemClock));
		expect(await w.db.guestNotice.findFirstOrThrow({ where: { jobId, kind: 'news_question' } })).toMatchObject({
			state: 'failed',
			error: expect.stringContaining('chose about news')
		});
		expect(await questionsIn(w)).toHaveLength(0);
		expect(await w.db.newsOptIn.findUniqueOrThrow({ where: { telegramUserId: BigInt(w.guestId) } })).toMatchObject({
			state: 'out',
			via: 'stop'
		});
		expect((await deliverPack(w)).asked).toBe(false);
	});

	it('never shown (the guest had blocked the bot) is not counted as asked: the next pack asks, once', async () => {
		const w = (world = await createGenerationWorld(tempDir()));
		// The notices read a clock of their own, a minute ahead of the rows queued by the machine's: the
		// refused send took the guest's place in the send budget, and the next one to the same chat may
		// go a second later by this clock, however fast or slow the machine runs the test.
		const clock = new FakeClock(new Date(Date.now() + MINUTE).toISOString());
		await w.emulator.control.setBlocked(w.guestId, true);
		const first = await deliverPack(w);
		await deliverGuestNotices(noticeDepsFor(w, clock));
		expect(
			await w.db.guestNotice.findFirstOrThrow({ where: { jobId: first.jobId, kind: 'news_question' } })
		).toMatchObject({ state: 'blocked' });
		expect(await w.db.newsOptIn.count()).toBe(0);

		await w.emulator.control.setBlocked(w.guestId, false);
		await w.db.guestBotBlock.deleteMany(); // they wrote to the bot again (saveGuestProfile clears the mark)
		const second = await deliverPack(w);
		expect(second.asked).toBe(true);
		clock.advance(2 * SECOND);
		await deliverGuestNotices(noticeDepsFor(w, clock));
		expect(await questionsIn(w)).toHaveLength(1);
		expect(await w.db.newsOptIn.findUniqueOrThrow({ where: { telegramUserId: BigInt(w.guestId) } })).toMatchObject({
			state: 'asked',
			wordingVersion: 'news-question-1'
		});
		expect((await deliverPack(w)).asked).toBe(false);
	});
});
