import { describe, expect, it } from 'vitest';
import { DELIVERED_CRASH_STEP } from '../../src/lib/server/jobs/run/crash-points.ts';
import type { ChatMessageView } from '../../tools/telegram-emulator/views.ts';
import { queueBroadcast } from './broadcast-world.ts';
import {
	crashAndRestartWorker,
	waitForJobStatus,
	type GenerationWorld,
	useWorkerProcessWorld
} from './generation-harness.ts';

/**
 * The real worker process SIGKILLed around the moment the pack is recorded delivered — right
 * before the commit that queues the news question with it, and right after it, before anything
 * sent the question — then started again. The guest gets the link once and the question once;
 * pressing Yes under it (the restarted worker's bot answers) brings the next broadcast, which
 * the restarted worker sends.
 */
describe('a worker killed between the pack and the news question', () => {
	const workers = useWorkerProcessWorld('news-crash-');
	const children = workers.children;
	let world: GenerationWorld | undefined;

	const isQuestion = (m: ChatMessageView) =>
		m.from_bot && m.buttons.flat().some((b) => b.callback_data?.startsWith('news:'));

	for (const step of ['before_link_commit', DELIVERED_CRASH_STEP]) {
		it(`${step}: the restarted worker asks once, after the one link, and a Yes brings the next broadcast`, async () => {
			world = await workers.open();
			const w = world;
			const jobId = await w.queueJob({ viaOutbox: true });
			const second = await crashAndRestartWorker(w, step, children);
			expect(await waitForJobStatus(w.db, jobId, ['done', 'failed'], 120_000)).toBe('done');
			const question = await w.emulator.control.waitForMessage(w.guestId, isQuestion, { timeoutMs: 30_000 });
			expect(question.text).toContain('would you like news from us');
			await waitUntil(
				async () => (await w.db.guestNotice.findFirst({ where: { jobId, kind: 'news_question' } }))?.state === 'sent'
			);
			const said = (await w.emulator.control.chatMessages(w.guestId)).filter((m) => m.from_bot);
			expect(said.filter(isQuestion)).toHaveLength(1);
			expect(said.filter((m) => m.text?.includes('https://t.me/addstickers/'))).toHaveLength(1);
			expect(await w.db.newsOptIn.findUniqueOrThrow({ where: { telegramUserId: BigInt(w.guestId) } })).toMatchObject({
				state: 'asked',
				wordingVersion: 'news-question-1',
				locale: 'en'
			});

			await w.emulator.control.pressButton({
				user_id: w.guestId,
				message_id: question.message_id,
				callback_data: 'news:yes:news-question-1'
			});
			await w.emulator.control.waitForMessage(
				w.guestId,
				(m) => m.from_bot && !!m.text?.startsWith('Done: we will send you news'),
				{ timeoutMs: 30_000 }
			);
			await queueBroadcast(w.db, 'Fresh news after the crash', null);
			await w.emulator.control.waitForMessage(
				w.guestId,
				(m) => m.from_bot && !!m.text?.includes('Fresh news after the crash'),
				{ timeoutMs: 30_000 }
			);
			second.kill('SIGTERM');
			await second.finished;
			// Answered, the question has lost its buttons: counted by its words, it is still there once.
			expect(
				(await w.emulator.control.chatMessages(w.guestId)).filter(
					(m) => m.from_bot && m.text?.includes('would you like news')
				)
			).toHaveLength(1);
		}, 200_000);
	}
});

async function waitUntil(condition: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await condition())) {
		if (Date.now() > deadline) throw new Error('condition not met in time');
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}
