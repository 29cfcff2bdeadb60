import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/lib/server/db/client.ts';
import { DAY, systemClock } from '../../src/lib/server/time/clock.ts';
import { cookiesFrom, postForm, postJson, requestWeb, useBuiltWeb, type BuiltWeb } from '../helpers/built-web.ts';
import { openSse, type SseEvent } from '../helpers/sse-reader.ts';
import { insertOperator, TEST_PASSWORD } from './console-fixtures.ts';

/** Console session hygiene over HTTP against the built server served as an https origin. */
describe('console sessions over HTTP', () => {
	const builtWeb = useBuiltWeb('web-console-sessions-');
	const ids: Record<string, number> = {};
	async function startOnHttps(): Promise<{ web: BuiltWeb; db: Db }> {
		const started = await builtWeb.start({}, { https: true });
		ids.olga = (await insertOperator(started.db, systemClock, 'olga', 'owner')).id;
		ids.vera = (await insertOperator(started.db, systemClock, 'vera', 'operator')).id;
		return started;
	}
	async function signIn(web: BuiltWeb, username: string): Promise<string> {
		const answer = await postForm(web, '/console/login', { username, password: TEST_PASSWORD });
		expect(answer.status).toBe(303);
		return cookiesFrom(answer);
	}
	const me = (web: BuiltWeb, cookie: string) => requestWeb(web, '/api/trpc/auth.me', { cookie });

	it('finding 11: on https the session cookie carries the __Host- prefix (Secure, Path=/, no Domain) and works', async () => {
		const { web } = await startOnHttps();
		const answer = await postForm(web, '/console/login', { username: 'olga', password: TEST_PASSWORD });
		expect(answer.status).toBe(303);
		const [line] = answer.headers.getSetCookie().filter((cookie) => cookie.includes('console_session='));
		expect(line).toMatch(/^__Host-console_session=[a-z2-7]{32};/);
		expect(line).toMatch(/; Secure/i);
		expect(line).toMatch(/; Path=\/(;|$)/);
		expect(line).toMatch(/; HttpOnly/i);
		expect(line).not.toMatch(/Domain=/i);
		expect((await me(web, cookiesFrom(answer))).status).toBe(200);
	});

	it('finding 11: on https a live view finds its __Host- session, and ends when that session is signed out', async () => {
		const { web } = await startOnHttps();
		const cookie = await signIn(web, 'olga');
		expect(cookie).toMatch(/^__Host-console_session=/);
		const live = await openSse(`${web.base}/api/trpc/console.watchLive`, { cookie });
		builtWeb.later(() => live.close());
		expect(live.status).toBe(200);
		await live.waitFor((event) => event.event === 'message');

		expect((await postForm(web, '/console/logout', {}, { cookie })).status).toBe(303);
		const unauthorised = (event: SseEvent) =>
			event.event === 'serialized-error' &&
			(JSON.parse(event.data) as { data?: { code?: string } }).data?.code === 'UNAUTHORIZED';
		await live.waitFor(unauthorised, 15_000);
		expect(live.events.filter((event) => event.event === 'serialized-error')).toHaveLength(1);
	});

	it('finding 11: a session ends 30 days after sign-in, however recently it was renewed', async () => {
		const { web, db } = await startOnHttps();
		const cookie = await signIn(web, 'olga');
		expect((await requestWeb(web, '/console', { cookie })).status).toBe(200);

		// 31 days pass: every time stamp of the session moves back, but the sliding renewal of
		// yesterday keeps its expiry ahead.
		const columns = (await db.$queryRawUnsafe<{ name: string }[]>('PRAGMA table_info(operator_sessions)'))
			.map((c) => c.name)
			.filter((name) => name.endsWith('_at'));
		const [row] = await db.$queryRawUnsafe<Record<string, string>[]>('SELECT * FROM operator_sessions');
		const shifted = columns.map((name) =>
			(name === 'expires_at'
				? new Date(Date.now() + 6 * DAY)
				: new Date(Date.parse(row![name]!) - 31 * DAY)
			).toISOString()
		);
		await db.$executeRawUnsafe(
			`UPDATE operator_sessions SET ${columns.map((name) => `${name} = ?`).join(', ')}`,
			...shifted
		);
		const after = await requestWeb(web, '/console', { cookie });
		expect(after.status).toBe(303);
		expect(after.headers.get('location')).toMatch(/^\/console\/login/);
		expect(after.headers.getSetCookie().join('\n')).toMatch(/console_session=;/);
		expect(await db.operatorSession.count()).toBe(0);
	});

	it('finding 11: a role change ends the sessions of that operator; signing in again gives a new session id', async () => {
		const { web, db } = await startOnHttps();
		const owner = await signIn(web, 'olga');
		const before = await signIn(web, 'vera');
		expect(await (await me(web, before)).json()).toMatchObject({
			result: { data: { username: 'vera', role: 'operator' } }
		});

		const changed = await postJson(
			web,
			'/api/trpc/operators.setRole',
			{ operatorId: ids.vera, role: 'viewer' },
			{ cookie: owner }
		);
		expect(changed.status).toBe(200);
		expect((await me(web, before)).status).toBe(401);

		const after = await signIn(web, 'vera');
		expect(after).not.toBe(before);
		expect(await (await me(web, after)).json()).toMatchObject({
			result: { data: { username: 'vera', role: 'viewer' } }
		});
		const audit = await db.auditLog.findMany({
			where: { action: 'change_operator_role' },
			select: { actor: true, details: true }
		});
		expect(audit).toEqual([
			{
				actor: 'olga',
				details: JSON.stringify({
					username: 'vera',
					from: 'operator',
					to: 'viewer',
					sessionsEnded: 1,
					tokensTrimmed: 0
				})
			}
		]);
	});
});
