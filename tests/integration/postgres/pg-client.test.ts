import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { usePgTestDb } from '../../helpers/pg-test-db.ts';

/** A Telegram user id beyond 2^53: a JavaScript number would lose its last digits. */
const GUEST = 9_007_199_254_740_993n;
const AT = '2026-12-01T10:00:00.000Z';

describe('the PostgreSQL client (the same Db the product uses)', () => {
	const database = usePgTestDb();

	it('creates and reads users, sessions and jobs with BigInt Telegram ids and ISO text times', async () => {
		const { db } = database();
		await db.user.create({ data: { telegramUserId: GUEST, createdAt: AT, firstName: 'Dilnoza' } });
		await db.session.create({
			data: { sessionToken: 'tok-1', telegramUserId: GUEST, status: 'linked', createdAt: AT, updatedAt: AT }
		});
		const job = await db.job.create({
			data: {
				telegramUserId: GUEST,
				sessionToken: 'tok-1',
				photoPath: 'p/1.jpg',
				templateId: 'hero',
				createdAt: AT,
				updatedAt: AT
			}
		});

		expect(await db.user.findUnique({ where: { telegramUserId: GUEST } })).toMatchObject({
			telegramUserId: GUEST,
			createdAt: AT,
			firstName: 'Dilnoza',
			extraPacksAllowed: 0
		});
		expect(await db.session.findMany({ where: { telegramUserId: GUEST } })).toMatchObject([
			{ sessionToken: 'tok-1', status: 'linked', updatedAt: AT }
		]);
		expect(job).toMatchObject({ jobId: expect.any(Number), status: 'queued', attempts: 0, telegramUserId: GUEST });
		const claimed = await db.job.updateMany({
			where: { jobId: job.jobId, status: 'queued' },
			data: { status: 'processing', attempts: { increment: 1 } }
		});
		expect(claimed.count).toBe(1);
		expect(await db.job.findUniqueOrThrow({ where: { jobId: job.jobId } })).toMatchObject({
			status: 'processing',
			attempts: 1
		});
	});

	it('creates a lead with its status history in one transaction and reads it back through the relation', async () => {
		const { db } = database();
		const lead = await db.$transaction(async (tx) => {
			const made = await tx.lead.create({
				data: { requestId: 'req-1', createdAt: AT, name: 'Aziz', chatId: -1_001_234_567_890n }
			});
			await tx.leadStatusHistory.create({ data: { leadId: made.id, status: 'new', byUserId: GUEST, at: AT } });
			return made;
		});
		const read = await db.lead.findUniqueOrThrow({ where: { requestId: 'req-1' }, include: { history: true } });
		expect(read).toMatchObject({
			id: lead.id,
			status: 'new',
			chatId: -1_001_234_567_890n,
			history: [{ status: 'new', byUserId: GUEST, at: AT }]
		});
		await expect(
			db.leadStatusHistory.create({ data: { leadId: 999_999, status: 'new', byUserId: 1n, at: AT } })
		).rejects.toThrow(/foreign key/i);
	});

	it('starts with the default event the migrations write, and the next event gets the next id', async () => {
		const { db } = database();
		expect(await db.event.findMany({ select: { id: true, name: true, state: true, catalogueVersion: true } })).toEqual([
			{ id: 1, name: 'Default event', state: 'live', catalogueVersion: 1 }
		]);
		expect(await db.catalogueVersion.count({ where: { eventId: 1, version: 1 } })).toBe(1);
		const next = await db.event.create({
			data: { name: 'Tashkent expo', titleTemplate: '{pack_title}', createdAt: AT, updatedAt: AT }
		});
		expect(next.id).toBe(2);
	});

	it('keeps Telegram ids as bigint and times as text on disk', async () => {
		const { db, url } = database();
		await db.user.create({ data: { telegramUserId: GUEST + 1n, createdAt: AT } });
		const client = new pg.Client({ connectionString: url });
		await client.connect();
		const { rows } = await client.query(
			`SELECT pg_typeof(telegram_user_id)::text AS id_type, pg_typeof(created_at)::text AS at_type, telegram_user_id::text AS id, created_at FROM users WHERE telegram_user_id = $1`,
			[(GUEST + 1n).toString()]
		);
		await client.end();
		expect(rows).toEqual([{ id_type: 'bigint', at_type: 'text', id: (GUEST + 1n).toString(), created_at: AT }]);
	});
});
