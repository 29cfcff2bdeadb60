import { describe, expect, it } from 'vitest';
import type { Db } from '../../../src/lib/server/db/client.ts';
import { assignKiosks } from '../../../src/lib/server/events/event-kiosks.repository.ts';
import { createEvent, endEvent, findEvent, startEvent } from '../../../src/lib/server/events/events.repository.ts';
import { publishDraft, readDraft, saveDraft } from '../../../src/lib/server/events/catalogue.repository.ts';
import { FakeClock } from '../../../src/lib/server/time/clock.ts';
import { usePgTestDb } from '../../helpers/pg-test-db.ts';
import { atOnce, fulfilled, refusals, useTwoClients } from './race-clients.ts';

// Two web processes on one PostgreSQL database (READ COMMITTED): operators press the same event
// button at the same moment, many rounds. Every read that decides a write must hold its row.

const ROUNDS = 15;
const actor = { name: 'oleg', ip: null };
const fields = (name: string) => ({
	name,
	startsOn: null,
	endsOn: null,
	titleTemplate: '{event} · {first_name}',
	captions: null
});

describe('event writes from two web processes at once', () => {
	const database = usePgTestDb();
	const clients = useTwoClients(database);
	const clock = new FakeClock('2026-03-01T10:00:00.000Z');

	/** A draft event with a published catalogue (its draft starts as the default event's) and these kiosks. */
	async function startableEvent(db: Db, name: string, kioskIds: number[]): Promise<number> {
		const event = await createEvent(db, clock, actor, fields(name));
		await publishDraft(db, clock, actor, event.id, 0);
		await assignKiosks(db, clock, actor, event.id, kioskIds);
		return event.id;
	}

	it('two events sharing a kiosk started at once: never both live', async () => {
		const [one, two] = clients();
		for (let round = 0; round < ROUNDS; round++) {
			const kiosk = await one.kiosk.create({
				data: { name: `hall-${round}`, keyHash: `k-${round}`, createdAt: clock.now().toISOString() }
			});
			const events = [
				await startableEvent(one, `a-${round}`, [kiosk.id]),
				await startableEvent(one, `b-${round}`, [kiosk.id])
			];
			const outcomes = await atOnce([one, two], (db, n) => startEvent(db, clock, actor, events[n]!));
			expect(refusals(outcomes)).toEqual(['KioskLiveElsewhere']);
			await Promise.all(
				events.map((id) => one.event.updateMany({ where: { id, state: 'live' }, data: { state: 'ended' } }))
			);
		}
	});

	it('one event started twice, then ended twice at once: one wins each, the other is refused', async () => {
		const [one, two] = clients();
		for (let round = 0; round < ROUNDS; round++) {
			const id = await startableEvent(one, `twice-${round}`, []);
			expect(refusals(await atOnce([one, two], (db) => startEvent(db, clock, actor, id)))).toEqual([
				'EventNotStartable'
			]);
			expect(refusals(await atOnce([one, two], (db) => endEvent(db, clock, actor, id)))).toEqual(['EventNotLive']);
			expect((await findEvent(one, id))?.state).toBe('ended');
			const audited = await one.auditLog.findMany({
				where: { action: { in: ['event_start', 'event_end'] }, details: { contains: `"eventId":${id}` } }
			});
			expect(audited.map((row) => row.action).sort()).toEqual(['event_end', 'event_start']);
		}
	});

	it('two saves of one draft revision at once: one is saved, the other is told to reload', async () => {
		const [one, two] = clients();
		const event = await createEvent(one, clock, actor, fields('catalogue'));
		for (let round = 0; round < ROUNDS; round++) {
			const draft = await readDraft(one, event.id);
			const outcomes = await atOnce([one, two], (db, n) =>
				saveDraft(db, clock, { name: `op-${n}`, ip: null }, event.id, draft.revision, draft.outfits.slice(0, 2 + n))
			);
			expect(refusals(outcomes)).toEqual(['DraftSavedMeanwhile']);
			const saved = await readDraft(one, event.id);
			expect(saved.revision).toBe(draft.revision + 1);
			expect(saved).toMatchObject({
				outfits: fulfilled(outcomes)[0]!.outfits,
				updatedBy: fulfilled(outcomes)[0]!.updatedBy
			});
		}
	});

	it('two publishes of one draft at once: both become versions, one after the other', async () => {
		const [one, two] = clients();
		const event = await createEvent(one, clock, actor, fields('publish'));
		for (let round = 0; round < ROUNDS; round++) {
			const outcomes = await atOnce([one, two], (db) => publishDraft(db, clock, actor, event.id, 0));
			expect(refusals(outcomes)).toEqual([]);
			expect(
				fulfilled(outcomes)
					.map((v) => v.version)
					.sort((a, b) => a - b)
			).toEqual([2 * round + 1, 2 * round + 2]);
		}
		expect((await findEvent(one, event.id))?.catalogueVersion).toBe(2 * ROUNDS);
	});
});
