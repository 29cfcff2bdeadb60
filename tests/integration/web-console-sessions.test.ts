import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/lib/server/db/client.ts';
import { DAY, systemClock } from '../../src/lib/server/time/clock.ts';
import { cookiesFrom, useBuiltWeb, type BuiltWeb } from '../helpers/built-web.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { insertOperator, TEST_PASSWORD } from './console-fixtures.ts';

/** Console session hygiene over HTTP against the built server served as an https origin (RELIABILITY R12). */
describe('console sessions over HTTP', () => {
	const startWeb = useBuiltWeb(useTempDir('web-console-sessions-'));
	const ids: Record<string, number> = {};
	const seed = async (db: Db) => {
		ids.olga = (await insertOperator(db, systemClock, 'olga', 'owner')).id;
		ids.vera = (await insertOperator(db, systemClock, 'vera', 'operator')).id;
	};
	async function signIn(web: BuiltWeb, username: string): Promise<string> {
		const answer = await web.postForm('/console/login', { username, password: TEST_PASSWORD });
		expect(answer.status).toBe(303);
		return cookiesFrom(answer);
	}
	const me = (web: BuiltWeb, cookie: string) => web.request('/api/trpc/auth.me', { cookie });

	it('finding 11: on https the session cookie carries the __Host- prefix (Secure, Path=/, no Domain) and works', async () => {
		const web = await startWeb({ seed, https: true });
		const answer = await web.postForm('/console/login', { username: 'olga', password: TEST_PASSWORD });
		expect(answer.status).toBe(303);
		const [line] = answer.headers.getSetCookie().filter((cookie) => cookie.includes('console_session='));
		expect(line).toMatch(/^__Host-console_session=[a-z2-7]{32};/);
		expect(line).toMatch(/; Secure/i);
		expect(line).toMatch(/; Path=\/(;|$)/);
		expect(line).toMatch(/; HttpOnly/i);
		expect(line).not.toMatch(/Domain=/i);
		expect((await me(web, cookiesFrom(answer))).status).toBe(200);
	});

	it('finding 11: a session ends 30 days after sign-in, however recently it was renewed', async () => {
		const web = await startWeb({ seed, https: true });
		const cookie = await signIn(web, 'olga');
		expect((await web.request('/console', { cookie })).status).toBe(200);

		// 31 days pass: every time stamp of the session moves back, but the sliding renewal of
		// yesterday keeps its expiry ahead.
		web.withDb((db) => {
			const columns = (db.prepare('PRAGMA table_info(operator_sessions)').all() as { name: string }[]).map((c) => c.name).filter((name) => name.endsWith('_at'));
			const row = db.prepare('SELECT * FROM operator_sessions').get() as Record<string, string>;
			const shifted = Object.fromEntries(columns.map((name) => [name, new Date(Date.parse(row[name]!) - 31 * DAY).toISOString()]));
			shifted.expires_at = new Date(Date.now() + 6 * DAY).toISOString();
			db.prepare(`UPDATE operator_sessions SET ${columns.map((name) => `${name} = @${name}`).join(', ')}`).run(shifted);
		});
		const after = await web.request('/console', { cookie });
		expect(after.status).toBe(303);
		expect(after.headers.get('location')).toMatch(/^\/console\/login/);
		expect(after.headers.getSetCookie().join('\n')).toMatch(/console_session=;/);
		expect(web.withDb((db) => db.prepare('SELECT count(*) AS n FROM operator_sessions').get())).toEqual({ n: 0 });
	});

	it('finding 11: a role change ends the sessions of that operator; signing in again gives a new session id', async () => {
		const web = await startWeb({ seed, https: true });
		const owner = await signIn(web, 'olga');
		const before = await signIn(web, 'vera');
		expect(await (await me(web, before)).json()).toMatchObject({ result: { data: { username: 'vera', role: 'operator' } } });

		const changed = await web.postJson('/api/trpc/operators.setRole', { operatorId: ids.vera, role: 'viewer' }, { cookie: owner });
		expect(changed.status).toBe(200);
		expect((await me(web, before)).status).toBe(401);

		const after = await signIn(web, 'vera');
		expect(after).not.toBe(before);
		expect(await (await me(web, after)).json()).toMatchObject({ result: { data: { username: 'vera', role: 'viewer' } } });
		const audit = web.withDb((db) => db.prepare("SELECT actor, details FROM audit_log WHERE action = 'change_operator_role'").all());
		expect(audit).toEqual([{ actor: 'olga', details: JSON.stringify({ username: 'vera', from: 'operator', to: 'viewer', sessionsEnded: 1 }) }]);
	});
});
