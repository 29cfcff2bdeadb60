import { describe, expect, it } from 'vitest';
import { findJobMessage } from '../../src/lib/server/jobs/job-messages.ts';
import { NOTICE_CRASH_STEPS } from '../../src/lib/server/jobs/run/crash-points.ts';
import { endMaintenance, startMaintenance } from '../../src/lib/server/settings/maintenance.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import {
	crashAndRestartWorker,
	waitForJobStatus,
	type GenerationWorld,
	useWorkerProcessWorld
} from './generation-harness.ts';

/**
 * The real worker process SIGKILLed between a notice's send and its record (CRASH_AT, as in the
 * generation crash tests), then started again. The emulator runs in this process, so it outlives
 * the worker and shows what the guest got:
 * - after_notice_sent — "Generating…" was posted but not recorded: after the claim's lease it is
 *   sent again (at least once; the plain send's duplicate window), and the job goes on. A notice's
 *   claim records no holder, so it waits out its lease: this case keeps a short JOB_LEASE_SECONDS
 *   (4 s), and holds the queue (maintenance) until the second copy is sent, or the job could finish
 *   first and the notice be skipped as outdated instead of sent again;
 * - after_status_edit — a status edit was made but not recorded: the restarted worker edits again,
 *   which changes nothing; the guest has one status message, its every state exactly once.
 */
describe('a worker killed between a guest notice and its record', () => {
	const workers = useWorkerProcessWorld('notice-crash-');
	const children = workers.children;
	let world: GenerationWorld | undefined;

	const GENERATING = /Generating your stickers|in the queue|to go/;
	const READY = '✅ Your stickers are ready!';

	const generatingCopies = async (w: GenerationWorld) =>
		(await w.emulator.control.chatMessages(w.guestId)).filter((m) => m.from_bot && GENERATING.test(m.text ?? ''))
			.length;

	async function crashThenFinish(step: (typeof NOTICE_CRASH_STEPS)[number]): Promise<{ jobId: number }> {
		world = await workers.open();
		const jobId = await world.queueJob({ viaOutbox: true, stillPack: true });
		// after_notice_sent: the lost notice is sent again only once its claim's lease runs out, and a job
		// that finished first makes it outdated (skipped, not sent). So the queue is paused from the start
		// until the second copy is in the chat: the order comes from events, not from how fast a pack is drawn
		// (faster packs once made the job win that race). Notices are sent while the queue is paused.
		const held = step === 'after_notice_sent';
		if (held) await startMaintenance(world.db, systemClock, 'admin', 'the test holds the queue');
		const lease: Record<string, string> = held ? { JOB_LEASE_SECONDS: '4' } : {};
		const second = await crashAndRestartWorker(world, step, children, lease);
		if (held) {
			await waitFor(async () => (await generatingCopies(world!)) >= 2, 60_000);
			await endMaintenance(world.db);
		}
		const status = await waitForJobStatus(world.db, jobId, ['done', 'failed'], 90_000);
		expect(status, (await world.db.job.findUnique({ where: { jobId } }))?.error ?? '').toBe('done');
		await waitFor(async () => (await findJobMessage(world!.db, jobId, 'generating'))?.shownText === READY);
		second.kill('SIGTERM');
		await second.finished;
		return { jobId };
	}

	it('after_notice_sent: "Generating…" is sent again after the lease — at least once — and the pack still comes once', async () => {
		const { jobId } = await crashThenFinish('after_notice_sent');
		const said = (await world!.emulator.control.chatMessages(world!.guestId)).filter((m) => m.from_bot);
		const statusMessages = said.filter((m) => GENERATING.test(m.text ?? '') || m.text === READY);
		// The one posted before the kill stays as it was; the recorded one is the live status message.
		// At least once: on a busy machine the restarted worker's own lease may run out mid-send, so a
		// third copy is allowed — but every copy is an attempt of the one notice and only one is live.
		expect(statusMessages.length).toBeGreaterThanOrEqual(2);
		const recorded = await findJobMessage(world!.db, jobId, 'generating');
		const live = statusMessages.filter((m) => BigInt(m.message_id) === recorded?.messageId);
		expect(live.map((m) => m.text)).toEqual([READY]);
		expect(statusMessages.filter((m) => m.text === READY)).toHaveLength(1);
		expect(await world!.db.guestNotice.findFirstOrThrow({ where: { jobId, kind: 'generating' } })).toMatchObject({
			state: 'sent',
			attempts: statusMessages.length
		});
		expect(said.filter((m) => m.text?.includes('https://t.me/addstickers/'))).toHaveLength(1);
	}, 150_000);

	it('after_status_edit: the edit is repeated, changes nothing, and the guest has one status message that ends "ready"', async () => {
		const { jobId } = await crashThenFinish('after_status_edit');
		const said = (await world!.emulator.control.chatMessages(world!.guestId)).filter((m) => m.from_bot);
		const statusMessages = said.filter(
			(m) =>
				GENERATING.test(m.text ?? '') ||
				m.text === READY ||
				/Looking|Sketching|Drawing|Cutting|Putting|Checking|Uploading/.test(m.text ?? '')
		);
		expect(statusMessages).toHaveLength(1);
		expect(statusMessages[0]).toMatchObject({ text: READY, edited: true });
		// The restarted worker edited the one status message again (the edit it had not recorded). The
		// killed worker's send-budget place holds the guest's chat until answerTimeoutMs (35 s; 5 s in
		// the crash tests, SEND_ANSWER_TIMEOUT_MS), so by the time the repeat goes the job may have moved
		// on: Telegram takes the newer text rather than answering "not modified" — either way on the same
		// message, never a new one.
		const edits = (await world!.emulator.control.callCounts()).calls.filter(
			(c) => c.method === 'editMessageText' && c.chat_id === world!.guestId
		);
		expect(edits.length).toBeGreaterThanOrEqual(2);
		expect(await world!.db.guestNotice.findFirstOrThrow({ where: { jobId, kind: 'generating' } })).toMatchObject({
			state: 'sent',
			attempts: 1
		});
		expect(said.filter((m) => m.text?.includes('https://t.me/addstickers/'))).toHaveLength(1);
	}, 150_000);
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await condition())) {
		if (Date.now() > deadline) throw new Error('condition not met in time');
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}
