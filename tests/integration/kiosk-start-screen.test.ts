import { describe, expect, it } from 'vitest';
import { assignKiosks } from '../../src/lib/server/events/event-kiosks.repository.ts';
import { publishDraft } from '../../src/lib/server/events/catalogue.repository.ts';
import { outfitPreviewPng } from '../../src/lib/server/events/catalogue-picture.ts';
import { createEvent, endEvent, startEvent, updateEvent } from '../../src/lib/server/events/events.repository.ts';
import { createKiosk } from '../../src/lib/server/kiosk/kiosk-keys.ts';
import { readKioskSamplePicture, readKioskStartScreen } from '../../src/lib/server/kiosk/kiosk-start-screen.ts';
import { SEED_OUTFITS } from '../../src/lib/server/outfits/seed-catalogue.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import { localFileStore } from '../helpers/file-store.ts';
import { useTestDb } from '../helpers/test-db.ts';

/** The Start screen shows the kiosk's live event: its name, its colours and its outfits' pictures (never guests'). */
const actor = { name: 'oleg', ip: null };
const fields = { name: 'Acme gala', startsOn: null, endsOn: null, titleTemplate: '{event}', captions: null };

describe('the kiosk Start screen of an event', () => {
	const testDb = useTestDb('kiosk-start-screen-');

	it('a kiosk of no live event: no name (the default event is "no event"), the kiosk’s colours, 6 of the outfits', async () => {
		const { db } = await testDb();
		const clock = new FakeClock();
		const { kiosk } = await createKiosk(db, clock, 'hall');
		const screen = await readKioskStartScreen(db, kiosk.id);
		expect(screen.eventName).toBeNull();
		expect(screen.branded).toBe(false);
		expect(screen.theme).toEqual({
			primary: '#1d1b4b',
			primaryInk: '#ffffff',
			accent: '#ffd23f',
			accentInk: '#000000'
		});
		expect(screen.sample.map((s) => s.id)).toEqual(SEED_OUTFITS.slice(0, 6).map((o) => o.id));
		expect(screen.sample[0]).toMatchObject({ emoji: '🚀', title: { en: 'Astronaut' } });
		expect(screen.sample[0]!.picture).toMatch(/^\/api\/kiosk\/sample\/astronaut\?v=[0-9a-f]{12}$/);
	});

	it('a kiosk of a live event with colours: its name and theme; back to the plain Start when it ends', async () => {
		const { db, dir } = await testDb();
		const clock = new FakeClock();
		const files = localFileStore(dir);
		const { kiosk } = await createKiosk(db, clock, 'hall');
		const event = await createEvent(db, clock, actor, { ...fields, brandPrimary: '#ffffff', brandAccent: '#e30613' });
		await publishDraft(db, clock, actor, event.id, 0);
		await assignKiosks(db, clock, actor, 1, []);
		await assignKiosks(db, clock, actor, event.id, [kiosk.id]);
		await startEvent(db, clock, actor, event.id);

		const screen = await readKioskStartScreen(db, kiosk.id);
		expect([screen.eventName, screen.branded]).toEqual(['Acme gala', true]);
		expect(screen.theme).toEqual({
			primary: '#ffffff',
			primaryInk: '#000000',
			accent: '#e30613',
			accentInk: '#ffffff'
		});
		const png = await readKioskSamplePicture(db, files, kiosk.id, 'chef');
		expect(
			png?.equals(
				await outfitPreviewPng(
					files,
					SEED_OUTFITS.find((o) => o.id === 'chef')!
				)
			)
		).toBe(true);
		// Only the sampled outfits of this kiosk's event: an outfit beyond the six, or unknown, is not served.
		expect(await readKioskSamplePicture(db, files, kiosk.id, SEED_OUTFITS[7]!.id)).toBeNull();
		expect(await readKioskSamplePicture(db, files, kiosk.id, 'nope')).toBeNull();

		// An update that leaves the colours out keeps them (older callers); clearing them is explicit.
		await updateEvent(db, clock, actor, event.id, { ...fields, name: 'Acme gala II' });
		expect((await readKioskStartScreen(db, kiosk.id)).theme.primary).toBe('#ffffff');
		await updateEvent(db, clock, actor, event.id, { ...fields, brandPrimary: null, brandAccent: null });
		expect((await readKioskStartScreen(db, kiosk.id)).branded).toBe(false);

		await endEvent(db, clock, actor, event.id);
		expect((await readKioskStartScreen(db, kiosk.id)).eventName).toBeNull();
	});
});
