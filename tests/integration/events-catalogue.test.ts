import { describe, expect, it } from 'vitest';
import type { Actor } from '../../src/lib/server/audit/audit-log.ts';
import type { Db } from '../../src/lib/server/db/client.ts';
import { DomainError } from '../../src/lib/server/errors/domain-error.ts';
import {
	listVersions,
	publishDraft,
	readDraft,
	readPublished,
	rollBackTo,
	saveDraft
} from '../../src/lib/server/events/catalogue.repository.ts';
import { assignKiosks } from '../../src/lib/server/events/event-kiosks.repository.ts';
import {
	createEvent,
	DEFAULT_EVENT_ID,
	endEvent,
	findEvent,
	startEvent
} from '../../src/lib/server/events/events.repository.ts';
import { offeredCatalogue, offeredOutfit } from '../../src/lib/server/events/offered-catalogue.ts';
import { takePhotoAndEnqueue } from '../../src/lib/server/guests/take-photo.ts';
import { readJobSnapshot } from '../../src/lib/server/jobs/job-snapshot.repository.ts';
import { readJobEventChoices } from '../../src/lib/server/jobs/run/job-event.ts';
import { readKioskSessionView } from '../../src/lib/server/kiosk/kiosk-session.ts';
import { recordKioskSession } from '../../src/lib/server/kiosk/kiosk-sessions.repository.ts';
import { deleteGuestRows, readGuestFootprint } from '../../src/lib/server/lifecycle/guest-rows.ts';
import { prismaRunner } from '../../src/lib/server/lifecycle/sql-runner.ts';
import { SEED_OUTFITS } from '../../src/lib/server/outfits/seed-catalogue.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import { consoleSentence } from '../../src/lib/server/trpc/domain-error-text.ts';
import type { Outfit } from '../../src/lib/schemas/outfit.ts';
import { useTestDb } from '../helpers/test-db.ts';

const olga: Actor = { name: 'olga', ip: '10.0.0.5' };
const oleg: Actor = { name: 'oleg', ip: '10.0.0.6' };
const fields = {
	name: 'Acme party',
	startsOn: '2026-03-01',
	endsOn: '2026-03-02',
	titleTemplate: '{event} · {first_name}',
	captions: null
};
const hoodie: Outfit = {
	id: 'acme-hoodie',
	emoji: '🧥',
	title: { ru: 'Худи Acme', uz: 'Acme xudi', en: 'Acme hoodie' },
	prompt: 'a bright orange company hoodie with the Acme logo on the chest',
	palette: { background: ['#ff9f1c', '#ffbf69'], body: '#ff6d00', trim: '#ffffff' },
	figure: 'rockstar',
	preview: null
};

describe('events, their versioned catalogues and the job snapshot', () => {
	const freshDb = useTestDb('events-');
	async function setUp() {
		const { db } = await freshDb();
		return { db, clock: new FakeClock('2026-03-01T10:00:00.000Z') };
	}
	/** What the operator reads: a domain refusal in the console's words. */
	const messageOf = (promise: Promise<unknown>) =>
		promise.then(
			() => 'OK',
			(error: Error) => (error instanceof DomainError ? consoleSentence(error.refusal) : error.message)
		);

	/** A guest at `kioskId` who has chosen `outfitId`, then the photo: the real queueing step. */
	async function guestTakesPhoto(db: Db, clock: FakeClock, kioskId: number, guest: bigint, outfitId: string) {
		const token = `tok${guest}`.padEnd(32, 'a');
		const now = clock.now().toISOString();
		await db.$transaction(async (tx) => {
			await tx.session.create({ data: { sessionToken: token, status: 'idle', createdAt: now, updatedAt: now } });
			await recordKioskSession(tx, kioskId, token, now);
		});
		await db.user.create({ data: { telegramUserId: guest, firstName: 'Guest', consentedAt: now, createdAt: now } });
		await db.session.update({
			where: { sessionToken: token },
			data: { status: 'template_chosen', telegramUserId: guest, templateId: outfitId }
		});
		const outcome = await takePhotoAndEnqueue(
			{ db, clock, timeouts: { qrTimeoutMs: 600_000, idleTimeoutMs: 600_000 }, packsPerGuest: async () => 1 },
			token,
			'/data/selfie.jpg'
		);
		if (outcome.kind !== 'enqueued') throw new Error(`not enqueued: ${outcome.kind}`);
		return { token, jobId: outcome.jobId };
	}

	it("the migration makes today's eight outfits the default event's version 1 (and its draft)", async () => {
		const { db } = await setUp();
		const published = await readPublished(db, DEFAULT_EVENT_ID);
		expect(published?.version).toBe(1);
		// The seed in code and the rows the migration wrote are the same eight outfits, field for field.
		expect(published?.outfits).toEqual(SEED_OUTFITS);
		expect(published?.outfits.find((o) => o.id === 'astronaut')?.palette).toEqual({
			background: ['#1d2b64', '#0b1026'],
			body: '#f4f6fb',
			trim: '#ff7a1a'
		});
		expect((await readDraft(db, DEFAULT_EVENT_ID)).outfits).toEqual(published?.outfits);
		expect((await listVersions(db, DEFAULT_EVENT_ID))[0]?.publishedBy).toBe('migration');
	});

	it('publishes v2 and rolls back to v1 as v3; a queued job keeps the outfit of the version it was made from', async () => {
		const { db, clock } = await setUp();
		const kiosk = await db.kiosk.create({ data: { name: 'Hall', keyHash: 'h1', createdAt: 'x' } });
		const event = await createEvent(db, clock, olga, fields);
		const draft = await readDraft(db, event.id);
		const saved = await saveDraft(db, clock, olga, event.id, draft.revision, [hoodie, ...draft.outfits.slice(0, 2)]);
		await publishDraft(db, clock, olga, event.id, saved.revision);
		await assignKiosks(db, clock, olga, event.id, [kiosk.id]);
		await startEvent(db, clock, olga, event.id);
		const first = await guestTakesPhoto(db, clock, kiosk.id, 501n, 'acme-hoodie');
		expect((await offeredCatalogue(db, first.token)).outfits.map((o) => o.id)).toEqual([
			'acme-hoodie',
			'astronaut',
			'superhero'
		]);
		// The kiosk names the operator's outfit (it is in no built-in list), and nothing personal.
		const kioskView = await readKioskSessionView(
			{ db, clock, timeouts: { qrTimeoutMs: 600_000, idleTimeoutMs: 600_000 }, slots: 1, packsPerGuest: async () => 1 },
			kiosk.id,
			first.token
		);
		expect(kioskView?.outfit).toEqual({
			emoji: '🧥',
			title: hoodie.title,
			preview: expect.stringMatching(new RegExp(`^/api/kiosk/sessions/${first.token}/outfit-preview\\?v=[0-9a-f]{12}$`))
		});

		const second = await saveDraft(db, clock, olga, event.id, saved.revision, [OUTFITS_V1_ASTRONAUT(draft.outfits)]);
		const v2 = await publishDraft(db, clock, oleg, event.id, second.revision);
		expect(v2).toMatchObject({ version: 2, publishedBy: 'oleg', changeSummary: 'Removed acme-hoodie, superhero.' });
		const rolled = await rollBackTo(db, clock, olga, event.id, 1);
		expect(rolled).toMatchObject({ version: 3, rolledBackFrom: 1 });
		expect(rolled.changeSummary).toBe('Rolled back to version 1. Added acme-hoodie, superhero.');
		expect((await findEvent(db, event.id))?.catalogueVersion).toBe(3);
		expect((await listVersions(db, event.id)).map((v) => v.version)).toEqual([3, 2, 1]);
		expect(
			await db.auditLog.findMany({
				where: { action: { startsWith: 'catalogue_' } },
				select: { action: true, actor: true, ip: true }
			})
		).toEqual([
			{ action: 'catalogue_save', actor: 'olga', ip: '10.0.0.5' },
			{ action: 'catalogue_publish', actor: 'olga', ip: '10.0.0.5' },
			{ action: 'catalogue_save', actor: 'olga', ip: '10.0.0.5' },
			{ action: 'catalogue_publish', actor: 'oleg', ip: '10.0.0.6' },
			{ action: 'catalogue_rollback', actor: 'olga', ip: '10.0.0.5' }
		]);

		const snapshot = await readJobSnapshot(db, first.jobId);
		expect(snapshot).toEqual({ jobId: first.jobId, eventId: event.id, catalogueVersion: 1, outfit: hoodie });
		const brief = await readJobEventChoices(db, { jobId: first.jobId, templateId: 'acme-hoodie' }, 'ru');
		expect(brief.outfit.prompt).toBe(hoodie.prompt);
		expect({ name: brief.eventName, titleTemplate: brief.titleTemplate }).toEqual({
			name: 'Acme party',
			titleTemplate: '{event} · {first_name}'
		});
		expect(brief.captions).toHaveLength(12);
	});

	it('removing an outfit a queued job uses is allowed: the job keeps its snapshot, new guests cannot pick it', async () => {
		const { db, clock } = await setUp();
		const kiosk = await db.kiosk.create({ data: { name: 'Hall', keyHash: 'h1', createdAt: 'x' } });
		const queued = await guestTakesPhoto(db, clock, kiosk.id, 601n, 'pirate');
		const draft = await readDraft(db, DEFAULT_EVENT_ID);
		const saved = await saveDraft(
			db,
			clock,
			olga,
			DEFAULT_EVENT_ID,
			draft.revision,
			draft.outfits.filter((o) => o.id !== 'pirate')
		);
		expect(await publishDraft(db, clock, olga, DEFAULT_EVENT_ID, saved.revision)).toMatchObject({
			version: 2,
			queuedWithRemovedOutfits: 1
		});
		expect((await db.job.findUniqueOrThrow({ where: { jobId: queued.jobId } })).status).toBe('queued');
		expect((await readJobEventChoices(db, { jobId: queued.jobId, templateId: 'pirate' }, 'en')).outfit.title.en).toBe(
			'Pirate'
		);
		expect(await offeredOutfit(db, queued.token, 'pirate')).toBeUndefined();
	});

	it('the second of two operators saving the same draft is told to reload, and nothing of the first is lost', async () => {
		const { db, clock } = await setUp();
		const opened = await readDraft(db, DEFAULT_EVENT_ID);
		await saveDraft(db, clock, olga, DEFAULT_EVENT_ID, opened.revision, [hoodie]);
		expect(
			await messageOf(saveDraft(db, clock, oleg, DEFAULT_EVENT_ID, opened.revision, opened.outfits.slice(0, 1)))
		).toBe('olga saved this catalogue while you were editing: reload to see their changes, then make yours again.');
		expect((await readDraft(db, DEFAULT_EVENT_ID)).outfits).toEqual([hoodie]);
		expect(await messageOf(publishDraft(db, clock, oleg, DEFAULT_EVENT_ID, opened.revision))).toBe(
			'The draft changed since you opened it: reload, check it, then publish.'
		);
		expect((await readPublished(db, DEFAULT_EVENT_ID))?.version).toBe(1);
	});

	it('refuses a bad catalogue with one clear sentence and keeps the saved draft', async () => {
		const { db, clock } = await setUp();
		const before = await readDraft(db, DEFAULT_EVENT_ID);
		const save = (outfits: unknown[]) =>
			messageOf(saveDraft(db, clock, olga, DEFAULT_EVENT_ID, before.revision, outfits as Outfit[]));
		expect(await save([hoodie, { ...hoodie, emoji: '🎩' }])).toBe(
			'Outfit 2: Two outfits share the id "acme-hoodie": each outfit needs its own.'
		);
		expect(await save([{ ...hoodie, id: 'a-very-long-outfit-id' }])).toBe(
			'Outfit 1: An outfit id has at most 16 characters.'
		);
		expect(await save([{ ...hoodie, title: { ...hoodie.title, uz: ' ' } }])).toBe(
			'Outfit 1: Every outfit needs a title in each language.'
		);
		expect(await save([])).toBe('A catalogue needs at least one outfit.');
		expect(await save([{ ...hoodie, preview: '../../app.db' }])).toBe(
			'Outfit 1: Upload the preview picture again: that is not a picture the console stored.'
		);
		expect(await readDraft(db, DEFAULT_EVENT_ID)).toEqual(before);
		expect(await db.auditLog.count()).toBe(0);
	});

	it('a kiosk works for at most one live event: assigning or starting with a taken kiosk is refused', async () => {
		const { db, clock } = await setUp();
		const kiosk = await db.kiosk.create({ data: { name: 'Hall', keyHash: 'h1', createdAt: 'x' } });
		await db.eventKiosk.create({ data: { eventId: DEFAULT_EVENT_ID, kioskId: kiosk.id, assignedAt: 'x' } });
		const event = await createEvent(db, clock, olga, fields);
		expect(await messageOf(assignKiosks(db, clock, olga, event.id, [kiosk.id]))).toBe(
			'Kiosk "Hall" already works for the live event "Default event": end that event or take the kiosk off it first.'
		);
		expect(await messageOf(startEvent(db, clock, olga, event.id))).toBe(
			'Publish the outfit catalogue before starting the event: guests would have nothing to choose.'
		);
		await assignKiosks(db, clock, olga, DEFAULT_EVENT_ID, []);
		await assignKiosks(db, clock, olga, event.id, [kiosk.id]);
		await db.eventKiosk.create({ data: { eventId: DEFAULT_EVENT_ID, kioskId: kiosk.id, assignedAt: 'x' } });
		const draft = await readDraft(db, event.id);
		await publishDraft(db, clock, olga, event.id, draft.revision);
		expect(await messageOf(startEvent(db, clock, olga, event.id))).toBe(
			'Kiosk "Hall" already works for the live event "Default event": end that event or take the kiosk off this one first.'
		);
		expect((await findEvent(db, event.id))?.state).toBe('draft');
	});

	it('ending an event leaves its queued jobs to finish; the next session of its kiosk goes to the default event', async () => {
		const { db, clock } = await setUp();
		const kiosk = await db.kiosk.create({ data: { name: 'Hall', keyHash: 'h1', createdAt: 'x' } });
		const event = await createEvent(db, clock, olga, fields);
		await saveDraft(db, clock, olga, event.id, 0, [hoodie]);
		await publishDraft(db, clock, olga, event.id, 1);
		await assignKiosks(db, clock, olga, event.id, [kiosk.id]);
		await startEvent(db, clock, olga, event.id);
		const queued = await guestTakesPhoto(db, clock, kiosk.id, 701n, 'acme-hoodie');
		const ended = await endEvent(db, clock, olga, event.id);
		expect(ended).toMatchObject({ event: { state: 'ended' }, jobsStillRunning: 1 });
		expect((await db.job.findUniqueOrThrow({ where: { jobId: queued.jobId } })).status).toBe('queued');
		expect((await readJobEventChoices(db, { jobId: queued.jobId, templateId: 'acme-hoodie' }, 'en')).outfit).toEqual(
			hoodie
		);
		const next = await guestTakesPhoto(db, clock, kiosk.id, 702n, 'astronaut');
		expect((await readJobSnapshot(db, next.jobId))?.eventId).toBe(DEFAULT_EVENT_ID);
		expect(await messageOf(saveDraft(db, clock, olga, event.id, 1, [hoodie]))).toBe(
			'This event has ended: its catalogue is kept as it was.'
		);
	});

	it("erasing a guest takes their jobs' snapshots too", async () => {
		const { db, clock } = await setUp();
		const kiosk = await db.kiosk.create({ data: { name: 'Hall', keyHash: 'h1', createdAt: 'x' } });
		const { jobId } = await guestTakesPhoto(db, clock, kiosk.id, 801n, 'chef');
		expect(await readJobSnapshot(db, jobId)).not.toBeNull();
		const sql = prismaRunner(db);
		const deleted = await deleteGuestRows(sql, 801n, await readGuestFootprint(sql, 801n));
		expect(deleted.job_snapshots).toBe(1);
		expect(await db.jobSnapshot.count()).toBe(0);
	});
});

function OUTFITS_V1_ASTRONAUT(outfits: Outfit[]): Outfit {
	return outfits.find((o) => o.id === 'astronaut')!;
}
