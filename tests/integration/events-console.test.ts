import { TRPCError } from '@trpc/server';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/lib/server/db/client.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import { createTestDb } from '../helpers/test-db.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { consoleCaller, insertOperator } from './console-fixtures.ts';

const fields = { name: 'Acme party', startsOn: null, endsOn: null, titleTemplate: '{event} · {first_name}', captions: null };

describe('the events router', () => {
	const tempDir = useTempDir('events-console-');
	const open: Db[] = [];
	afterEach(async () => {
		for (const db of open.splice(0)) await db.$disconnect();
	});
	async function setUp() {
		const dir = tempDir();
		const { db } = await createTestDb(dir);
		open.push(db);
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const operator = await insertOperator(db, clock, 'oleg', 'operator');
		const viewer = await insertOperator(db, clock, 'vera', 'viewer');
		return { db, as: (who: typeof operator) => consoleCaller(db, clock, dir, who), operator, viewer };
	}
	const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (error: unknown) => (error instanceof TRPCError ? error.code : String(error)));

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
		const saved = await caller.events.saveDraft({ eventId: event.id, revision: draft.revision, outfits: draft.outfits.slice(0, 3) });
		const published = await caller.events.publish({ eventId: event.id, revision: saved.revision });
		expect(published).toMatchObject({ version: 1, publishedBy: 'oleg', changeSummary: 'First catalogue: 3 outfits.' });
		const stale = caller.events.saveDraft({ eventId: event.id, revision: draft.revision, outfits: draft.outfits });
		await expect(stale).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('reload') });
		expect(await db.auditLog.findMany({ select: { action: true, actor: true } })).toEqual([
			{ action: 'event_create', actor: 'oleg' },
			{ action: 'catalogue_save', actor: 'oleg' },
			{ action: 'catalogue_publish', actor: 'oleg' }
		]);
	});
});
