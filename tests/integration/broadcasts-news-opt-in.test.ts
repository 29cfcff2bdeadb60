import { Api } from 'grammy';
import { afterEach, describe, expect, it } from 'vitest';
import { EMULATOR_BOT_TOKEN } from '../../src/lib/server/config/config.ts';
import { uploadSelfie } from '../../src/lib/server/kiosk/photo-upload.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { BotBudget } from '../../src/lib/server/telegram/bot-budget.ts';
import { ChatCooldown } from '../../src/lib/server/telegram/flood-control.ts';
import { deliverGuestNotices, type GuestNoticeDeps } from '../../src/lib/server/jobs/guest-notice-outbox.ts';
import { applyTelegramRetryPolicy } from '../../src/lib/server/telegram/retry-policy.ts';
import type { ChatMessageView } from '../../tools/telegram-emulator/views.ts';
import { createJobLoop } from '../../src/worker/queue/start-queue.ts';
import { deliverBroadcasts } from '../../src/worker/tasks/broadcasts-deliver.ts';
import type { JobLoop } from '../../src/worker/queue/job-loop.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { broadcastDeliveryDeps, countDeliveries, queueBroadcast } from './broadcast-world.ts';
import { waitForJobStatus } from './generation-harness.ts';
import {
	eventually,
	newGuest,
	sessionRow,
	startGuestWorld,
	startSession,
	uploadDeps,
	type Guest,
	type GuestWorld
} from './guest-harness.ts';
import { selfieJpeg, streamOf } from './guest-photos.ts';
import { jobLoopInput } from '../helpers/job-loop-input.ts';

/**
 * The news opt-in through the real bot on the emulator: guests link at the kiosk, consent to the
 * selfie, get their pack from the real job loop, and the notices outbox asks the one question.
 * Broadcasts then go through the real delivery pass. Consent alone never brings a broadcast; Yes
 * does; /stop ends it; /news brings it back; the question is asked once per guest, whatever the
 * answer, over later packs too.
 */
describe('news opt-in after the pack, through the bot', () => {
	const tempDir = useTempDir('news-opt-in-');
	let world: GuestWorld | undefined;
	let loop: JobLoop | undefined;
	afterEach(async () => {
		await loop?.stop(1000);
		loop = undefined;
		await world?.close();
		world = undefined;
	});

	const SLOW = 30_000;
	const isQuestion = (m: ChatMessageView) =>
		m.from_bot && m.buttons.flat().some((b) => b.callback_data?.startsWith('news:'));
	const questionsOf = async (guest: Guest) =>
		(await guest.messages()).filter(
			(m) => m.from_bot && /news|новости|yangilik/i.test(m.text ?? '') && /\?/.test(m.text ?? '')
		);

	async function start(): Promise<GuestWorld> {
		world = await startGuestWorld(tempDir(), {
			JOB_POLL_MS: '100',
			JOB_BACKOFF_BASE_SECONDS: '0',
			PROVIDER_RETRY_BASE_MS: '20'
		});
		world.clock.set(new Date()); // the job loop runs on the system clock; the bot's clock starts at the same moment
		const api = new Api(EMULATOR_BOT_TOKEN, { apiRoot: world.emulator.url });
		applyTelegramRetryPolicy(api);
		loop = await createJobLoop(jobLoopInput({ ...world, api }, world.config));
		loop.start();
		return world;
	}

	/** A guest's pack, from the kiosk to the link: the first time through consent, later straight to the outfits. */
	async function packFor(w: GuestWorld, guest: Guest, first: boolean): Promise<number> {
		const token = await startSession(w);
		const seen = (await guest.messages()).filter((m) => m.photo).length;
		await guest.send(`/start ${token}`);
		if (first) {
			const prompt = await guest.waitFor((m) => m.buttons.flat().some((b) => b.callback_data === `gc:${token}`), SLOW);
			await guest.press(prompt.message_id, `gc:${token}`);
		}
		// The catalogue picture is drawn on first use: on a busy machine that takes a while.
		const catalogues = await eventually(
			() => guest.messages(),
			(all) => all.filter((m) => m.photo).length === seen + 1,
			SLOW
		);
		await guest.press(catalogues.filter((m) => m.photo).at(-1)!.message_id, `go:wizard:${token}`);
		await eventually(
			() => sessionRow(w, token),
			(s) => s.status === 'template_chosen',
			SLOW
		);
		const outcome = await uploadSelfie(uploadDeps(w), w.kiosk.id, token, streamOf(await selfieJpeg()), null);
		if (outcome.kind !== 'enqueued') throw new Error(`upload: ${outcome.kind}`);
		return (await w.db.job.findFirstOrThrow({ where: { sessionToken: token } })).jobId;
	}

	/**
	 * The worker's notices outbox until nothing is left to send. The send budget lives in the
	 * database and every sender here reads the world's one FakeClock, so a pass moves it on a second:
	 * the bot's per-chat pace lets the link and the question go one second apart.
	 */
	async function sendNotices(w: GuestWorld): Promise<void> {
		const deps: GuestNoticeDeps = {
			db: w.db,
			clock: w.clock,
			logger: silentLogger,
			api: w.noticeApi,
			cooldown: new ChatCooldown(),
			budget: new BotBudget(w.db, w.clock, 'test'),
			slots: 2,
			leaseMs: 30_000
		};
		await eventually(
			async () => (
				await deliverGuestNotices(deps),
				w.clock.advance(1000),
				w.db.guestNotice.count({ where: { state: { in: ['queued', 'sending'] } } })
			),
			(left) => left === 0,
			15_000
		);
	}

	async function broadcast(w: GuestWorld, text: string, guests: Guest[]): Promise<number[]> {
		const deps = broadcastDeliveryDeps(w);
		await queueBroadcast(w.db, text, null, w.clock.now().toISOString());
		for (let pass = 0; pass < 20; pass++) {
			await deliverBroadcasts(deps);
			if (
				(await w.db.broadcastRecipient.count({ where: { state: 'queued' } })) === 0 &&
				(await w.db.broadcast.count({ where: { state: 'scheduled' } })) === 0
			)
				break;
			w.clock.advance(1000);
		}
		const counts = await countDeliveries(
			w.emulator,
			guests.map((g) => g.id),
			text
		);
		return guests.map((g) => counts.get(g.id) ?? 0);
	}

	it('consent alone brings no broadcast; Yes does; /stop ends it; /news brings it back; asked once, also after later packs', async () => {
		const w = await start();
		const [aziza, ben, chen] = [
			await newGuest(w, 'ru', 'Aziza'),
			await newGuest(w, 'en', 'Ben'),
			await newGuest(w, 'uz', 'Chen')
		];
		const jobs = [await packFor(w, aziza, true), await packFor(w, ben, true), await packFor(w, chen, true)];
		for (const jobId of jobs) expect(await waitForJobStatus(w.db, jobId, ['done', 'failed'], 120_000)).toBe('done');
		// Queued with the delivery, before any worker sent anything: one row per guest, asked, no answer.
		expect(
			await w.db.newsOptIn.findMany({ select: { state: true, answeredAt: true }, orderBy: { telegramUserId: 'asc' } })
		).toEqual(Array.from({ length: 3 }, () => ({ state: 'asked', answeredAt: null })));
		await sendNotices(w);

		const eventName = (await w.db.event.findUniqueOrThrow({ where: { id: 1 } })).name;
		const asked = await aziza.waitFor(isQuestion);
		expect(asked.text).toContain(`новости от ${eventName}`);
		expect(asked.buttons.flat().map((b) => [b.text, b.callback_data])).toEqual([
			['Да, присылайте новости', 'news:yes:news-question-1'],
			['Нет, спасибо', 'news:no:news-question-1']
		]);
		const said = (await aziza.messages()).filter((m) => m.from_bot);
		expect(said.findIndex((m) => m.text?.includes('https://t.me/addstickers/'))).toBeLessThan(
			said.indexOf(said.find(isQuestion)!)
		);
		expect((await ben.waitFor(isQuestion)).text).toContain(`news from ${eventName}`);
		expect((await chen.waitFor(isQuestion)).buttons.flat().map((b) => b.text)).toEqual([
			'Ha, yangiliklarni yuboring',
			'Yo‘q, rahmat'
		]);
		expect(await w.db.newsOptIn.findUniqueOrThrow({ where: { telegramUserId: BigInt(aziza.id) } })).toMatchObject({
			state: 'asked',
			wordingVersion: 'news-question-1',
			locale: 'ru',
			eventId: 1,
			via: null
		});

		// Silence means no: three guests who consented to the selfie, and nobody gets the broadcast.
		expect(await broadcast(w, 'News one', [aziza, ben, chen])).toEqual([0, 0, 0]);

		await aziza.press(asked.message_id, 'news:yes:news-question-1');
		await aziza.waitFor((m) => m.text?.startsWith('Готово: будем иногда присылать') ?? false);
		await ben.press((await ben.waitFor(isQuestion)).message_id, 'news:no:news-question-1');
		await ben.waitFor((m) => m.text?.startsWith('All right: no news') ?? false);
		const yes = await w.db.newsOptIn.findUniqueOrThrow({ where: { telegramUserId: BigInt(aziza.id) } });
		expect(yes).toMatchObject({
			state: 'in',
			via: 'button',
			wordingVersion: 'news-question-1',
			locale: 'ru',
			answeredAt: w.clock.now().toISOString()
		});
		expect(await w.db.newsOptIn.findUniqueOrThrow({ where: { telegramUserId: BigInt(ben.id) } })).toMatchObject({
			state: 'out',
			via: 'button'
		});
		// The answered question loses its buttons, so it cannot be answered twice.
		await eventually(
			() => aziza.messages(),
			(all) => all.find((m) => m.message_id === asked.message_id)?.buttons.length === 0
		);

		expect(await broadcast(w, 'News two', [aziza, ben, chen])).toEqual([1, 0, 0]);

		await aziza.send('/stop');
		await aziza.waitFor((m) => m.text?.startsWith('Готово: больше не будем') ?? false);
		expect(await broadcast(w, 'News three', [aziza, ben, chen])).toEqual([0, 0, 0]);

		await aziza.send('/news');
		await aziza.waitFor((m) => m.text?.startsWith('Готово: вы будете получать наши новости') ?? false);
		expect(await w.db.newsOptIn.findUniqueOrThrow({ where: { telegramUserId: BigInt(aziza.id) } })).toMatchObject({
			state: 'in',
			via: 'news_command',
			wordingVersion: 'news-command-1',
			locale: 'ru'
		});
		await aziza.send('/news');
		await aziza.waitFor((m) => m.text?.startsWith('Вы уже получаете') ?? false);
		expect(await broadcast(w, 'News four', [aziza, ben, chen])).toEqual([1, 0, 0]);

		// Later packs: Ben said No, Chen never answered — neither is asked again.
		await w.db.user.updateMany({
			where: { telegramUserId: { in: [BigInt(ben.id), BigInt(chen.id)] } },
			data: { extraPacksAllowed: 1 }
		});
		const later = [await packFor(w, ben, false), await packFor(w, chen, false)];
		for (const jobId of later) expect(await waitForJobStatus(w.db, jobId, ['done', 'failed'], 120_000)).toBe('done');
		await sendNotices(w);
		for (const guest of [aziza, ben, chen]) expect(await questionsOf(guest)).toHaveLength(1);
		expect(
			(await ben.messages()).filter((m) => m.from_bot && m.text?.includes('https://t.me/addstickers/'))
		).toHaveLength(2);
		expect(await w.db.guestNotice.count({ where: { kind: 'news_question' } })).toBe(3);
	}, 300_000);

	it('/news from someone who never made stickers records nothing and says how to start', async () => {
		const w = await start();
		const stranger = await newGuest(w, 'en', 'Stranger');
		await stranger.send('/news');
		await stranger.waitFor((m) => m.text?.startsWith('Our news go to guests who made stickers') ?? false);
		expect(await w.db.newsOptIn.count()).toBe(0);
	});
});
