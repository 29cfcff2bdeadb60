import { describe, expect, it } from 'vitest';
import { readProvidersView } from '../../src/lib/server/console/provider-health.ts';
import type { Db } from '../../src/lib/server/db/client.ts';
import { holdForQuotaMinute, pauseForQuotaDay, readKioskPause } from '../../src/lib/server/jobs/queue-pause.ts';
import { writeSetting } from '../../src/lib/server/settings/settings.repository.ts';
import { startMaintenance } from '../../src/lib/server/settings/maintenance.ts';
import { recordApiUsage } from '../../src/lib/server/spend/usage-recorder.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import { useTestDb } from '../helpers/test-db.ts';

/** The Live and Health pages' provider health, from api_usage rows in a real SQLite file. */
describe('provider health for the console', () => {
	const freshDb = useTestDb('provider-health-');
	const prices = { inputPerMTok: 0, outputTextPerMTok: 0, outputImagePerMTok: 0 };
	const call = (db: Db, clock: FakeClock, provider: 'gemini' | 'offline', ok: boolean, error?: string) =>
		recordApiUsage(db, clock, prices, {
			jobId: null,
			stage: 'sheet',
			provider,
			usage: { kind: 'image', model: 'm' },
			ok,
			error
		});

	it('last success and failure per provider, and only the errors of the last 15 minutes count', async () => {
		const { db } = await freshDb();
		const clock = new FakeClock('2026-06-01T10:00:00.000Z');
		await call(db, clock, 'gemini', false, 'HTTP 503 old');
		clock.advance(20 * 60_000);
		await call(db, clock, 'gemini', true);
		clock.advance(60_000);
		await call(db, clock, 'gemini', false, 'HTTP 429 per minute');
		await call(db, clock, 'offline', true);
		clock.advance(60_000);
		const view = await readProvidersView(db, clock);
		expect(view.pause).toBeNull();
		expect(view.providers).toEqual([
			{
				provider: 'gemini',
				lastOkAt: '2026-06-01T10:20:00.000Z',
				lastErrorAt: '2026-06-01T10:21:00.000Z',
				lastError: 'HTTP 429 per minute',
				errorsRecent: 1,
				callsRecent: 2,
				down: null
			},
			{
				provider: 'offline',
				lastOkAt: '2026-06-01T10:21:00.000Z',
				lastErrorAt: null,
				lastError: null,
				errorsRecent: 0,
				callsRecent: 1,
				down: null
			}
		]);
	});

	it('a model the check did not find marks the provider down and names the setting', async () => {
		const { db } = await freshDb();
		const clock = new FakeClock('2026-06-01T10:00:00.000Z');
		await writeSetting(
			db,
			clock,
			'model_check',
			JSON.stringify({
				at: clock.now().toISOString(),
				missing: [{ provider: 'gemini', setting: 'GEMINI_VISION_MODEL', model: 'gemini-3-flash' }]
			})
		);
		await startMaintenance(db, clock, 'config', 'gemini does not know the model');
		const view = await readProvidersView(db, clock);
		expect(view.providers).toEqual([
			expect.objectContaining({
				provider: 'gemini',
				lastOkAt: null,
				down: 'model "gemini-3-flash" unknown — change GEMINI_VISION_MODEL'
			})
		]);
		expect(view.pause).toMatchObject({ source: 'config', reason: 'gemini does not know the model' });
	});

	it('the quota-day pause shows with its expected end', async () => {
		const { db } = await freshDb();
		const clock = new FakeClock('2026-06-01T10:00:00.000Z');
		await pauseForQuotaDay(db, clock, new Date('2026-06-02T07:00:00.000Z'), 'RPD spent');
		expect((await readProvidersView(db, clock)).pause).toEqual({
			source: 'quota_day',
			reason: 'RPD spent',
			since: '2026-06-01T10:00:00.000Z',
			until: '2026-06-02T07:00:00.000Z'
		});
	});

	it('a per-minute quota hold shows with its reason and end, and ends by itself; the kiosk does not see it', async () => {
		const { db } = await freshDb();
		const clock = new FakeClock('2026-06-01T10:00:00.000Z');
		await holdForQuotaMinute(
			db,
			clock,
			new Date('2026-06-01T10:00:38.000Z'),
			'gemini per-minute quota: RESOURCE_EXHAUSTED'
		);
		// A later 429 moves the end, never the start; an earlier one changes nothing.
		clock.advance(10_000);
		await holdForQuotaMinute(
			db,
			clock,
			new Date('2026-06-01T10:00:45.000Z'),
			'gemini per-minute quota: RESOURCE_EXHAUSTED'
		);
		await holdForQuotaMinute(
			db,
			clock,
			new Date('2026-06-01T10:00:20.000Z'),
			'gemini per-minute quota: RESOURCE_EXHAUSTED'
		);
		expect((await readProvidersView(db, clock)).pause).toEqual({
			source: 'quota_minute',
			reason: 'gemini per-minute quota: RESOURCE_EXHAUSTED',
			since: '2026-06-01T10:00:00.000Z',
			until: '2026-06-01T10:00:45.000Z'
		});
		expect(await readKioskPause(db, clock)).toBeNull();
		clock.advance(36_000);
		expect((await readProvidersView(db, clock)).pause).toBeNull();
	});

	it('a key the provider refuses shows as a config pause with the sentence that names the fix', async () => {
		const { db } = await freshDb();
		const clock = new FakeClock('2026-06-01T10:00:00.000Z');
		await startMaintenance(
			db,
			clock,
			'config',
			'gemini refused the API key (API_KEY_INVALID): set GEMINI_API_KEY to a valid key of a project with the Gemini API enabled'
		);
		expect((await readProvidersView(db, clock)).pause).toMatchObject({
			source: 'config',
			reason: expect.stringContaining('set GEMINI_API_KEY')
		});
		expect(await readKioskPause(db, clock)).toMatchObject({ source: 'config' });
	});
});
