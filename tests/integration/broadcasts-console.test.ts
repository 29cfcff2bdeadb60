import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { broadcastImageUpload } from '../../src/lib/server/broadcasts/broadcast-image-route.ts';
import { answerPictureUpload } from '../../src/lib/server/web/picture-upload.ts';
import {
	BROADCAST_RETENTION_DAYS,
	eraseExpiredBroadcasts
} from '../../src/lib/server/broadcasts/broadcast-retention.ts';
import { readBroadcastDetail } from '../../src/lib/server/broadcasts/broadcast-views.ts';
import { optOutOfBroadcasts } from '../../src/lib/server/broadcasts/opt-out.ts';
import { turnNewsOn } from '../../src/lib/server/broadcasts/news-choice.ts';
import { eraseInactiveGuests } from '../../src/lib/server/lifecycle/guest-retention.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { startDueBroadcasts } from '../../src/lib/server/broadcasts/broadcasts.repository.ts';
import type { Db } from '../../src/lib/server/db/client.ts';
import { DAY } from '../../src/lib/server/time/clock.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { insertGuest, startConsoleWorld } from './console-fixtures.ts';
import { localFileStore } from '../helpers/file-store.ts';

/** The console's broadcast procedures (the real router, a real SQLite file): validation, audit, states, picture, retention. */
describe('broadcasts in the console', () => {
	const tempDir = useTempDir('bcast-console-');
	let db: Db;
	afterEach(async () => db?.$disconnect());

	async function setUp() {
		const world = await startConsoleWorld(tempDir());
		db = world.db;
		const { dir, clock, ivan, vera } = world;
		const as = (who: typeof ivan) => world.callerFor(who).broadcasts;
		const guestsAs = (who: typeof ivan) => world.callerFor(who).guests;
		return { dir, clock, ivan, vera, as, guestsAs };
	}

	const draft = { text: '<b>Hello</b>', eventId: 1, buttonText: '', buttonUrl: '', imageName: null };

	it('refuses bad texts, links and events with a sentence; viewers cannot act', async () => {
		const { ivan, vera, as } = await setUp();
		await expect(as(ivan).create({ ...draft, text: '<b>Hello</i>' })).rejects.toMatchObject({
			code: 'BAD_REQUEST',
			message: expect.stringContaining('is not closed in the right place')
		});
		await expect(as(ivan).create({ ...draft, text: '<img src=x>' })).rejects.toMatchObject({
			message: expect.stringContaining('does not allow the tag <img>')
		});
		await expect(as(ivan).create({ ...draft, text: 'x'.repeat(4097) })).rejects.toMatchObject({
			message: expect.stringContaining('Telegram allows 4096')
		});
		await expect(
			as(ivan).create({ ...draft, buttonText: 'Go', buttonUrl: 'http://example.com' })
		).rejects.toMatchObject({ message: expect.stringContaining('must start with https://') });
		await expect(as(ivan).create({ ...draft, buttonText: 'Go' })).rejects.toMatchObject({
			message: expect.stringContaining('needs both a label and a link')
		});
		await expect(as(ivan).create({ ...draft, eventId: 999 })).rejects.toMatchObject({
			message: 'Event #999 does not exist: choose the event again.'
		});
		await expect(as(ivan).create({ ...draft, imageName: 'aaaaaaaaaaaaaaaaaaaaaaaa.jpg' })).rejects.toMatchObject({
			message: expect.stringContaining('upload it again')
		});
		await expect(as(vera).create(draft)).rejects.toMatchObject({ code: 'FORBIDDEN' });
		expect(await db.broadcast.count()).toBe(0);
	});

	it('creates, test-sends, sends, pauses, resumes and cancels with an audit entry each; refuses what the state does not allow', async () => {
		const { clock, ivan, as } = await setUp();
		await insertGuest(db, clock, { id: 501n });
		// The selfie consent alone puts nobody in the audience; the guest's own yes does.
		expect(await as(ivan).audience({ eventId: null })).toBe(0);
		expect(await turnNewsOn(db, clock, 501n, 'en')).toBe('on');
		const { id } = await as(ivan).create({ ...draft, eventId: null });
		expect(await as(ivan).audience({ eventId: null })).toBe(1);
		await expect(as(ivan).testSend({ id })).rejects.toMatchObject({
			message: expect.stringContaining('Link your own Telegram chat on your profile page')
		});
		// As the bot's /link leaves it (broadcasts-test-send.test.ts proves the chat through the emulator).
		await db.operator.update({
			where: { id: ivan.id },
			data: { telegramId: 777000111n, telegramVerifiedAt: clock.now().toISOString() }
		});
		expect(await as(ivan).testSend({ id })).toEqual({ telegramId: '777000111' });
		expect(await db.broadcastRecipient.findFirst({ where: { broadcastId: id, test: true } })).toMatchObject({
			telegramUserId: 777000111n,
			state: 'queued'
		});

		await expect(as(ivan).pause({ id })).rejects.toMatchObject({
			message: `Broadcast #${id} is draft, so it cannot be paused now.`
		});
		expect(await as(ivan).send({ id, sendAt: '2026-06-01T12:00:00.000Z' })).toEqual({
			state: 'scheduled',
			sendAt: '2026-06-01T12:00:00.000Z'
		});
		await expect(as(ivan).send({ id, sendAt: null })).rejects.toMatchObject({
			message: expect.stringContaining('cannot be sent now')
		});
		expect(await startDueBroadcasts(db, clock.now().toISOString())).toEqual([]);
		clock.advance(2 * 60 * 60 * 1000);
		expect(await startDueBroadcasts(db, clock.now().toISOString())).toEqual([id]);
		expect(await as(ivan).pause({ id })).toEqual({ state: 'paused' });
		expect(await as(ivan).resume({ id })).toEqual({ state: 'sending' });
		expect(await as(ivan).cancel({ id })).toEqual({ state: 'cancelled' });
		await expect(as(ivan).resume({ id: 9999 })).rejects.toMatchObject({
			message: expect.stringContaining('does not exist')
		});

		const audit = await db.auditLog.findMany({ orderBy: { id: 'asc' }, select: { action: true, actor: true } });
		expect(audit.map((a) => a.action)).toEqual([
			'broadcast_create',
			'broadcast_test_send',
			'broadcast_send',
			'broadcast_pause',
			'broadcast_resume',
			'broadcast_cancel'
		]);
		expect(new Set(audit.map((a) => a.actor))).toEqual(new Set(['ivan']));
		const detail = await readBroadcastDetail(db, id, ivan.id);
		expect(detail).toMatchObject({
			state: 'cancelled',
			audienceCount: 1,
			counts: { skipped: 1 },
			failures: [{ reason: 'Skipped: the broadcast was cancelled before their turn.', count: 1 }],
			myTelegramId: '777000111'
		});
	});

	it('shows how many guests said yes to news, per event and in total, to viewers too — none at first', async () => {
		const { clock, ivan, vera, as, guestsAs } = await setUp();
		const nowIso = clock.now().toISOString();
		const other = (
			await db.event.create({
				data: {
					name: 'Spring fair',
					state: 'live',
					titleTemplate: '{pack_title}',
					createdAt: nowIso,
					updatedAt: nowIso
				}
			})
		).id;
		const kiosk = await db.kiosk.create({ data: { name: 'hall', keyHash: 'hash-hall', createdAt: nowIso } });
		const guest = async (id: bigint, eventId: number, news: 'in' | 'out' | 'asked' | null) => {
			await insertGuest(db, clock, { id });
			await db.session.create({
				data: { sessionToken: `s${id}`, telegramUserId: id, status: 'consented', createdAt: nowIso, updatedAt: nowIso }
			});
			await db.kioskSession.create({ data: { sessionToken: `s${id}`, kioskId: kiosk.id, createdAt: nowIso, eventId } });
			if (news) await db.newsOptIn.create({ data: { telegramUserId: id, state: news, updatedAt: nowIso } });
		};
		await guest(701n, 1, null);
		await guest(702n, other, 'asked');
		const empty = await as(vera).optedIn();
		expect(empty.total).toBe(0);
		expect(empty.events.map((e) => [e.name, e.optedIn])).toEqual([
			['Spring fair', 0],
			[expect.any(String), 0]
		]);

		await guest(703n, 1, 'in');
		await guest(704n, other, 'in');
		await guest(705n, other, 'in');
		await guest(706n, other, 'out');
		await turnNewsOn(db, clock, 701n, 'ru');
		const counts = await as(ivan).optedIn();
		expect(counts.total).toBe(4);
		expect(counts.events.map((e) => [e.id, e.optedIn])).toEqual([
			[other, 2],
			[1, 2]
		]);
		expect(await as(ivan).audience({ eventId: other })).toBe(2);

		// The Guests page shows each guest's answer with the words they saw, to prove it if asked.
		const rows = (await guestsAs(vera).list({ search: '' })).rows;
		const newsOf = (id: string) => rows.find((r) => r.telegramUserId === id)?.news;
		expect(newsOf('701')).toMatchObject({
			state: 'in',
			via: 'news_command',
			wordingVersion: 'news-command-1',
			locale: 'ru',
			answeredAt: nowIso
		});
		expect(newsOf('702')).toMatchObject({ state: 'asked', answeredAt: null });
		expect(newsOf('706')?.state).toBe('out');
	});

	it('retention erases an inactive guest’s broadcast rows and opt-out with them; the broadcast itself stays', async () => {
		const { dir, clock, ivan, as } = await setUp();
		await insertGuest(db, clock, { id: 601n });
		const { id } = await as(ivan).create({ ...draft, eventId: null });
		await as(ivan).send({ id, sendAt: null });
		await startDueBroadcasts(db, clock.now().toISOString());
		await optOutOfBroadcasts(db, clock, 601n, 'stop', 'en');
		clock.advance(91 * DAY);
		const erased = await eraseInactiveGuests({
			db,
			clock,
			logger: silentLogger,
			fileStore: localFileStore(dir),
			pseudonymKey: Buffer.alloc(32, 7),
			retentionDays: 90
		});
		expect(erased).toBe(1);
		expect(await db.broadcastRecipient.count({ where: { telegramUserId: 601n } })).toBe(0);
		expect(await db.newsOptIn.count()).toBe(0);
		expect(await db.broadcast.count({ where: { id } })).toBe(1);
	});

	it('checks a picture like every upload, stores a clean copy, and the retention clock removes the broadcast with it', async () => {
		const { dir, clock, ivan, vera, as } = await setUp();
		const upload = (bytes: Buffer, who = ivan) =>
			answerPictureUpload(
				who,
				new Request('http://x/api/console/broadcasts/image', { method: 'POST', body: new Uint8Array(bytes) }),
				broadcastImageUpload(localFileStore(dir))
			);
		expect((await upload(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).status).toBe(400);
		expect(await (await upload(Buffer.from('hello'))).json()).toEqual({
			error: 'This file is not a picture: upload a JPEG, PNG or WebP image.'
		});
		expect((await upload(Buffer.alloc(11 * 1024 * 1024, 1))).status).toBe(413);
		const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c33' } })
			.png()
			.toBuffer();
		expect((await upload(png, vera)).status).toBe(403);
		const answer = await upload(png);
		expect(answer.status).toBe(201);
		const { name } = (await answer.json()) as { name: string };
		await expect(as(ivan).create({ ...draft, imageName: name, text: 'x'.repeat(1025) })).rejects.toMatchObject({
			message: expect.stringContaining('Telegram allows 1024 under a picture')
		});
		const made = await as(ivan).create({ ...draft, imageName: name });
		const stored = (await db.broadcast.findUniqueOrThrow({ where: { id: made.id } })).imagePath!;
		expect((await sharp(stored).metadata()).format).toBe('jpeg');

		await as(ivan).cancel({ id: made.id });
		clock.advance((BROADCAST_RETENTION_DAYS - 1) * DAY);
		expect(await eraseExpiredBroadcasts(db, clock, localFileStore(dir))).toBe(0);
		clock.advance(2 * DAY);
		expect(await eraseExpiredBroadcasts(db, clock, localFileStore(dir))).toBe(1);
		expect(await db.broadcast.count()).toBe(0);
		expect(existsSync(stored)).toBe(false);
		expect(path.dirname(stored)).toBe(path.join(dir, 'broadcasts'));
	});
});
