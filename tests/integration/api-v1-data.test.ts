import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { createApiToken } from '../../src/lib/server/api-tokens/api-tokens.repository.ts';
import type { Db } from '../../src/lib/server/db/client.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { useBuiltWeb } from '../helpers/built-web.ts';
import { PROJECT_ROOT } from '../helpers/node-process.ts';
import { insertOperator } from './console-fixtures.ts';

/** What /api/v1 answers, over HTTP against the built server; the OpenAPI document and docs/api.md's curl example. */
describe('/api/v1 data', () => {
	const { start } = useBuiltWeb('api-v1-data-');
	const at = '2026-06-01T10:00:00.000Z';

	async function world() {
		const { web, db } = await start();
		const owner = await insertOperator(db, systemClock, 'olga', 'owner');
		const token = await createApiToken(db, systemClock, owner.id, {
			name: 'crm',
			scopes: ['stats:read', 'leads:read', 'leads:write'],
			expiresInDays: 30,
			ratePerMinute: 600
		});
		const call = (route: string, init: RequestInit = {}) =>
			fetch(`${web.base}/api/v1${route}`, {
				...init,
				headers: { authorization: `Bearer ${token.secret}`, ...init.headers }
			});
		return { web, db, token, call };
	}

	async function seedEvent(db: Db): Promise<number> {
		const event = await db.event.create({
			data: { name: 'Wedding', state: 'active', titleTemplate: 'Wedding {name}', createdAt: at, updatedAt: at }
		});
		const kiosk = await db.kiosk.create({ data: { name: 'hall', keyHash: 'k'.repeat(64), createdAt: at } });
		for (const [i, status, linkSentAt] of [
			[1, 'done', at],
			[2, 'failed', null],
			[3, 'queued', null]
		] as const) {
			await db.kioskSession.create({
				data: { sessionToken: `s${i}`, kioskId: kiosk.id, createdAt: at, eventId: event.id }
			});
			const job = await db.job.create({
				data: {
					telegramUserId: 500n + BigInt(i),
					sessionToken: `s${i}`,
					photoPath: 'p.jpg',
					templateId: i === 3 ? 'pirate' : 'astronaut',
					status,
					linkSentAt,
					createdAt: at,
					updatedAt: at
				}
			});
			await db.jobSnapshot.create({
				data: { jobId: job.jobId, eventId: event.id, catalogueVersion: 1, outfitJson: '{}', createdAt: at }
			});
		}
		return event.id;
	}

	it('event and pack statistics, the jobs summary, 404 and 400', async () => {
		const { db, call } = await world();
		const eventId = await seedEvent(db);
		const events = await (await call('/events')).json();
		expect(events.events.find((e: { id: number }) => e.id === eventId)).toEqual({
			id: eventId,
			name: 'Wedding',
			state: 'active',
			startsOn: null,
			endsOn: null,
			sessions: 3,
			jobs: 3,
			packsDelivered: 1
		});
		const detail = await (await call(`/events/${eventId}`)).json();
		expect(detail.packs).toEqual([
			{ templateId: 'astronaut', jobs: { queued: 0, processing: 0, delivering: 0, done: 1, failed: 1 }, delivered: 1 },
			{ templateId: 'pirate', jobs: { queued: 1, processing: 0, delivering: 0, done: 0, failed: 0 }, delivered: 0 }
		]);
		expect(await (await call('/jobs/summary')).json()).toEqual({
			byStatus: { queued: 1, processing: 0, delivering: 0, done: 1, failed: 1 },
			total: 3,
			packsDelivered: 1
		});
		expect((await (await call('/jobs/summary?since=2026-06-02T00:00:00Z')).json()).total).toBe(0);
		expect((await call(`/events/${eventId + 1}`)).status).toBe(404);
		const bad = await call('/jobs/summary?since=yesterday');
		expect(bad.status).toBe(400);
		expect((await bad.json()).error.issues[0].path).toBe('since');
	}, 60_000);

	it('leads page by page, and a CSV export that a spreadsheet cannot run', async () => {
		const { db, call } = await world();
		for (let i = 1; i <= 5; i++)
			await db.lead.create({
				data: {
					requestId: `r${i}`,
					createdAt: `2026-06-0${i}T10:00:00.000Z`,
					name: `Lead ${i}`,
					phone: '+998901234567',
					status: i === 5 ? 'deal' : 'new'
				}
			});
		await db.lead.create({
			data: {
				requestId: 'evil',
				createdAt: '2026-06-06T10:00:00.000Z',
				name: '=HYPERLINK("http://evil.example","click")',
				telegram: '@ok',
				guests: '-2+3',
				locale: 'en'
			}
		});
		const page = await (await call('/leads?page=2&pageSize=2')).json();
		expect({ total: page.total, names: page.leads.map((l: { name: string }) => l.name) }).toEqual({
			total: 6,
			names: ['Lead 4', 'Lead 3']
		});
		expect((await (await call('/leads?status=deal')).json()).leads.map((l: { id: number }) => l.id)).toHaveLength(1);
		expect((await call('/leads?pageSize=1000')).status).toBe(400);

		const csv = await call('/leads/export.csv?since=2026-06-05T00:00:00Z');
		expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
		const lines = (await csv.text()).split('\r\n');
		expect(lines[0]).toBe(
			'"id","createdAt","name","telegram","phone","eventDate","guests","locale","utmSource","status","statusByName","statusAt","erasedAt"'
		);
		expect(lines[1]).toContain('"Lead 5","","\'+998901234567"');
		expect(lines[2]).toBe(
			'"6","2026-06-06T10:00:00.000Z","\'=HYPERLINK(""http://evil.example"",""click"")","\'@ok","","","\'-2+3","en","","new","","",""'
		);
		expect(lines).toHaveLength(4);
	}, 60_000);

	it('a status change goes through the console service: history, card edit, audit under the owner', async () => {
		const { db, call, token } = await world();
		const lead = await db.lead.create({ data: { requestId: 'r1', createdAt: at, name: 'Aziz' } });
		const post = (body: string, type = 'application/json') =>
			call(`/leads/${lead.id}/status`, { method: 'POST', headers: { 'content-type': type }, body });
		expect(await (await post('{"status":"deal"}')).json()).toEqual({ outcome: 'changed' });
		expect(await (await post('{"status":"deal"}')).json()).toEqual({ outcome: 'unchanged' });
		expect((await post('{"status":"won"}')).status).toBe(400);
		expect((await post('status=deal', 'application/x-www-form-urlencoded')).status).not.toBe(200);
		expect(
			(
				await call('/leads/999/status', {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: '{"status":"deal"}'
				})
			).status
		).toBe(404);
		expect((await call('/leads/1/status')).status).toBe(405);

		const stored = await db.lead.findUniqueOrThrow({ where: { id: lead.id } });
		expect({ status: stored.status, by: stored.statusByName }).toEqual({ status: 'deal', by: 'api: olga' });
		expect(await db.leadStatusHistory.count({ where: { leadId: lead.id } })).toBe(1);
		expect(await db.leadCardEdit.count({ where: { leadId: lead.id } })).toBe(1);
		const audit = await db.auditLog.findMany({ where: { action: 'lead_status' } });
		expect(audit.map((a) => ({ actor: a.actor, details: JSON.parse(a.details ?? '{}') }))).toEqual([
			{
				actor: 'olga',
				details: { leadId: lead.id, status: 'deal', outcome: 'changed', via: 'api', tokenId: token.id }
			},
			{
				actor: 'olga',
				details: { leadId: lead.id, status: 'deal', outcome: 'unchanged', via: 'api', tokenId: token.id }
			}
		]);
	}, 60_000);

	it('serves an OpenAPI 3.1 document that validates and lists every operation with its scope', async () => {
		const { web } = await world();
		const response = await fetch(`${web.base}/api/v1/openapi.json`);
		expect(response.status).toBe(200);
		const document = await response.json();
		const result = await new Validator().validate(document);
		expect(result.errors ?? []).toEqual([]);
		expect(result.valid).toBe(true);
		expect(document.openapi).toBe('3.1.0');
		const operations = Object.entries(
			document.paths as Record<string, Record<string, { security: Record<string, string[]>[] }>>
		).flatMap(([route, ops]) =>
			Object.entries(ops).map(([method, op]) => `${method} ${route} ${op.security[0]!.bearerToken![0]}`)
		);
		expect(operations.sort()).toEqual([
			'get /events stats:read',
			'get /events/{id} stats:read',
			'get /jobs/summary stats:read',
			'get /leads leads:read',
			'get /leads/export.csv leads:read',
			'post /leads/{id}/status leads:write'
		]);
		expect(document.paths['/leads'].get.parameters.map((p: { name: string }) => p.name)).toEqual([
			'status',
			'since',
			'page',
			'pageSize'
		]);
		expect(
			document.paths['/leads/{id}/status'].post.requestBody.content['application/json'].schema.properties.status.enum
		).toContain('deal');
	}, 60_000);

	it("docs/api.md's curl example works against the built server", async () => {
		const { web, db, token } = await world();
		await db.lead.create({ data: { requestId: 'r1', createdAt: at, name: 'Aziz' } });
		const docs = readFileSync(path.join(PROJECT_ROOT, 'docs/api.md'), 'utf8');
		const example = /## Example[\s\S]*?```sh\n([\s\S]*?)```/.exec(docs)![1]!.trim().split('\n');
		expect(example).toHaveLength(2);
		const answers = [];
		for (const line of example) {
			const command = line.replaceAll('http://localhost:3000', web.base);
			const { stdout } = await promisify(execFile)('sh', ['-c', command], {
				env: { ...process.env, KIOSK_API_TOKEN: token.secret }
			});
			answers.push(JSON.parse(stdout));
		}
		expect(answers).toEqual([
			{ byStatus: { queued: 0, processing: 0, delivering: 0, done: 0, failed: 0 }, total: 0, packsDelivered: 0 },
			{ outcome: 'changed' }
		]);
	}, 60_000);
});
