import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import { useTestDb } from '../helpers/test-db.ts';
import { consoleCaller, insertOperator } from './console-fixtures.ts';

const fields = {
	name: 'Acme party',
	startsOn: null,
	endsOn: null,
	titleTemplate: '{event} · {first_name}',
	captions: null
};

describe('the events router', () => {
	const freshDb = useTestDb('events-console-');
	async function setUp() {
		const { db, dir } = await freshDb();
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const operator = await insertOperator(db, clock, 'oleg', 'operator');
		const viewer = await insertOperator(db, clock, 'vera', 'viewer');
		return { db, as: (who: typeof operator) => consoleCaller(db, clock, dir, who), operator, viewer };
	}
	const codeOf = (promise: Promise<unknown>) =>
		promise.then(
			() => 'OK',
			(error: unknown) => (error instanceof TRPCError ? error.code : String(error))
		);

	it('lets a viewer read events and catalogues but change nothing', async () => {
		const { db, as, viewer } = await setUp();
		const caller = as(viewer);
		expect((await caller.events.list()).map((e) => e.name)).toEqual(['Default event']);
		const detail = await caller.events.detail({ eventId: 1 });
		expect(detail.published?.version).toBe(1);
		const attempts = [
			caller.events.create(fields),
			caller.events.update({ eventId: 1, fields }),
			caller.events.start({ eventId: 1 }),
			caller.events.end({ eventId: 1 }),
			caller.events.assignKiosks({ eventId: 1, kioskIds: [] }),
			caller.events.saveDraft({ eventId: 1, revision: 0, outfits: detail.draft.outfits }),
			caller.events.publish({ eventId: 1, revision: 0 }),
			caller.events.rollBack({ eventId: 1, version: 1 })
		];
		for (const attempt of attempts) expect(await codeOf(attempt)).toBe('FORBIDDEN');
		expect(await db.auditLog.count()).toBe(0);
		expect(await db.catalogueVersion.count()).toBe(1);
	});

	it('an operator creates an event, saves and publishes its catalogue; a refusal is a sentence (BAD_REQUEST)', async () => {
		const { db, as, operator } = await setUp();
		const caller = as(operator);
		const event = await caller.events.create(fields);
		const { draft } = await caller.events.detail({ eventId: event.id });
		const saved = await caller.events.saveDraft({
			eventId: event.id,
			revision: draft.revision,
			outfits: draft.outfits.slice(0, 3)
		});
		const published = await caller.events.publish({ eventId: event.id, revision: saved.revision });
		expect(published).toMatchObject({ version: 1, publishedBy: 'oleg', changeSummary: 'First catalogue: 3 outfits.' });
		const stale = caller.events.saveDraft({ eventId: event.id, revision: draft.revision, outfits: draft.outfits });
		await expect(stale).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('reload') });
		// Every outfit rule comes back as the one sentence naming the outfit, not as a list of field issues.
		const twice = caller.events.saveDraft({
			eventId: event.id,
			revision: saved.revision,
			outfits: [draft.outfits[0], { ...draft.outfits[0], id: 'an-id-of-17-chars' }]
		});
		await expect(twice).rejects.toMatchObject({
			code: 'BAD_REQUEST',
			message: 'Outfit 2: An outfit id has at most 16 characters.'
		});
		expect(await db.auditLog.findMany({ select: { action: true, actor: true } })).toEqual([
			{ action: 'event_create', actor: 'oleg' },
			{ action: 'catalogue_save', actor: 'oleg' },
			{ action: 'catalogue_publish', actor: 'oleg' }
		]);
	});

	it('sums up one event: guests, packs, failures, spend, median photo → link, packs per hour', async () => {
		const { db, as, operator, viewer } = await setUp();
		const eventId = (await as(operator).events.create(fields)).id;
		const kiosk = await db.kiosk.create({ data: { name: 'Hall', keyHash: 'h', createdAt: 'x' } });
		const jobs = [
			{
				guest: 11n,
				status: 'done',
				created: '2026-03-01T10:00:00.000Z',
				updated: '2026-03-01T10:02:00.000Z',
				cost: 0.1
			},
			{
				guest: 12n,
				status: 'done',
				created: '2026-03-01T10:10:00.000Z',
				updated: '2026-03-01T10:14:00.000Z',
				cost: 0.2
			},
			{
				guest: 12n,
				status: 'done',
				created: '2026-03-01T12:00:00.000Z',
				updated: '2026-03-01T12:10:00.000Z',
				cost: 0.3
			},
			{
				guest: 13n,
				status: 'failed',
				created: '2026-03-01T12:00:00.000Z',
				updated: '2026-03-01T12:30:00.000Z',
				cost: 0.05
			}
		];
		for (const [i, j] of jobs.entries()) {
			const token = `sum${i}`;
			await db.session.create({
				data: {
					sessionToken: token,
					telegramUserId: j.guest,
					status: 'photo_taken',
					templateId: 'chef',
					createdAt: j.created,
					updatedAt: j.created
				}
			});
			await db.kioskSession.create({ data: { sessionToken: token, kioskId: kiosk.id, createdAt: j.created, eventId } });
			const job = await db.job.create({
				data: {
					telegramUserId: j.guest,
					sessionToken: token,
					photoPath: 'x',
					templateId: 'chef',
					status: j.status,
					createdAt: j.created,
					updatedAt: j.updated
				}
			});
			await db.jobSnapshot.create({
				data: { jobId: job.jobId, eventId, catalogueVersion: 1, outfitJson: '{}', createdAt: j.created }
			});
			await db.apiUsage.create({
				data: {
					jobId: job.jobId,
					ts: j.created,
					kind: 'image',
					provider: 'gemini',
					model: 'm',
					estCostUsd: j.cost,
					ok: 1,
					stage: 'sheet',
					images: 1
				}
			});
		}
		const { summary } = await as(viewer).events.summary({ eventId });
		expect(summary).toMatchObject({ guests: 3, packs: 3, failures: 1, medianPhotoToLinkSeconds: 240 });
		expect(summary.spendUsd).toBeCloseTo(0.65);
		expect(summary.packsPerHour).toEqual([
			{ hour: '2026-03-01T10', packs: 2 },
			{ hour: '2026-03-01T11', packs: 0 },
			{ hour: '2026-03-01T12', packs: 1 }
		]);
		expect((await as(viewer).events.summary({ eventId: 1 })).summary.packs).toBe(0);
	});

	it('refuses a caption that cannot fit on a sticker even in two lines, saying how many characters fit; a long one that fits is saved', async () => {
		const { db, as, operator } = await setUp();
		const caller = as(operator);
		const event = await caller.events.create(fields);
		const twelve = (last: string) => [...Array.from({ length: 11 }, (_, i) => `Caption ${i + 1}`), last];
		const tooLong = 'WWWWWWWWWW WWWWWWWWWW WWWWWWWWWW WWWWWWW';
		const refused = caller.events.update({
			eventId: event.id,
			fields: { ...fields, captions: { en: twelve(tooLong) } }
		});
		await expect(refused).rejects.toMatchObject({
			code: 'BAD_REQUEST',
			message: expect.stringMatching(
				/^English caption 12 \("W+ W+ W+ W+"\) does not fit on a sticker even in two lines at the smallest type: about \d+ characters like these fit \(it has 40\)\. Shorten it\.$/
			)
		});
		const fitting = Number(
			/about (\d+) characters/.exec(
				await refused.then(
					() => '',
					(error: Error) => error.message
				)
			)![1]
		);
		expect(fitting).toBeGreaterThan(10);
		expect(fitting).toBeLessThan(40);
		// New events are checked too, and nothing was written by either refusal.
		await expect(caller.events.create({ ...fields, captions: { ru: twelve('Ш'.repeat(40)) } })).rejects.toMatchObject({
			message: expect.stringContaining('Russian caption 12')
		});
		expect((await db.event.findUniqueOrThrow({ where: { id: event.id } })).captionsJson).toBeNull();

		const saved = await caller.events.update({
			eventId: event.id,
			fields: { ...fields, captions: { en: twelve('CORPORATE GALA FOREVER 2026') } }
		});
		expect(saved.captions?.en?.[11]).toBe('CORPORATE GALA FOREVER 2026');
	});
});
