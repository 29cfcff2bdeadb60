import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/lib/server/db/client.ts';
import {
	listVersions,
	readDraft,
	readPublished,
	SEED_PUBLISHER,
	seedDefaultCatalogue
} from '../../src/lib/server/events/catalogue.repository.ts';
import { DEFAULT_EVENT_ID } from '../../src/lib/server/events/events.repository.ts';
import { defaultOutfitSnapshot } from '../../src/lib/server/outfits/default-outfit.ts';
import { SEED_OUTFITS } from '../../src/lib/server/outfits/seed-catalogue.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import { useTestDb } from '../helpers/test-db.ts';

/** The built-in outfits are only the seed of the default event's first published catalogue version. */
describe('the seed catalogue', () => {
	const freshDb = useTestDb('catalogue-seed-');
	const clock = new FakeClock('2026-07-01T09:00:00.000Z');

	/** A database whose default event lost its catalogue (or never had one): no versions, no draft. */
	async function withoutCatalogue(db: Db): Promise<void> {
		await db.event.update({ where: { id: DEFAULT_EVENT_ID }, data: { catalogueVersion: null } });
		await db.catalogueVersion.deleteMany({ where: { eventId: DEFAULT_EVENT_ID } });
		await db.catalogueDraft.deleteMany({ where: { eventId: DEFAULT_EVENT_ID } });
	}

	it('does nothing where the migration already published version 1', async () => {
		const { db } = await freshDb();
		expect(await seedDefaultCatalogue(db, clock)).toBeNull();
		expect((await listVersions(db, DEFAULT_EVENT_ID)).map((v) => [v.version, v.publishedBy])).toEqual([
			[1, 'migration']
		]);
	});

	it('publishes the built-in outfits as version 1 and the draft when the default event has none, once', async () => {
		const { db } = await freshDb();
		await withoutCatalogue(db);
		expect(await readPublished(db, DEFAULT_EVENT_ID)).toBeNull();

		// Two processes starting at once: one seeds, the other finds the version it wrote.
		const results = await Promise.all([seedDefaultCatalogue(db, clock), seedDefaultCatalogue(db, clock)]);
		expect(results.sort()).toEqual([1, null]);

		const published = await readPublished(db, DEFAULT_EVENT_ID);
		expect(published).toEqual({ eventId: DEFAULT_EVENT_ID, version: 1, outfits: SEED_OUTFITS });
		const [version] = await listVersions(db, DEFAULT_EVENT_ID);
		expect(version).toMatchObject({
			version: 1,
			publishedBy: SEED_PUBLISHER,
			publishedAt: '2026-07-01T09:00:00.000Z',
			changeSummary: 'First catalogue: 8 outfits.'
		});
		expect((await readDraft(db, DEFAULT_EVENT_ID)).outfits).toEqual(SEED_OUTFITS);
		expect(await seedDefaultCatalogue(db, clock)).toBeNull();
		expect(await listVersions(db, DEFAULT_EVENT_ID)).toHaveLength(1);
	});

	it('keeps a draft an operator saved before the first publish', async () => {
		const { db } = await freshDb();
		await withoutCatalogue(db);
		const mine = [{ ...SEED_OUTFITS[0]!, prompt: 'a silver space suit with blue stripes and a clear bubble helmet' }];
		await db.catalogueDraft.create({
			data: {
				eventId: DEFAULT_EVENT_ID,
				outfitsJson: JSON.stringify(mine),
				revision: 3,
				updatedBy: 'olga',
				updatedAt: 'x'
			}
		});
		expect(await seedDefaultCatalogue(db, clock)).toBe(1);
		expect(await readDraft(db, DEFAULT_EVENT_ID)).toMatchObject({ outfits: mine, revision: 3, updatedBy: 'olga' });
	});

	it('is the one Outfit shape: a job from before events draws the seed outfit of its template', () => {
		for (const outfit of SEED_OUTFITS) expect(defaultOutfitSnapshot(outfit.id)).toEqual(outfit);
		// A copy: a caller changing its snapshot never changes the seed.
		expect(defaultOutfitSnapshot('chef')).not.toBe(SEED_OUTFITS.find((o) => o.id === 'chef'));
	});
});
