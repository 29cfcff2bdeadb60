import { describe, expect, it } from 'vitest';
import {
	callTrpc,
	CLIENT_ADDRESS_FROM_HEADER,
	DEFAULT_TEST_IP,
	postJson,
	signIn,
	useBuiltWeb,
	type BuiltWeb
} from '../helpers/built-web.ts';
import { TEST_PASSWORD, testPasswordHash } from './console-fixtures.ts';

/**
 * The Kiosks page's promises through the real entry points of the built server: an operator adds a
 * kiosk over tRPC, the kiosk API takes its key; a revoke makes the kiosk's very next call 401; the
 * PIN set in the console is what the kiosk's Staff reset checks; a viewer is refused over HTTP too.
 */
describe('kiosks from the console, seen by the kiosk API', () => {
	const builtWeb = useBuiltWeb('web-kiosks-console-');

	async function start() {
		// KIOSK_STAFF_PIN is only the first default: the console's PIN replaces it.
		const { web, db } = await builtWeb.start({ ...CLIENT_ADDRESS_FROM_HEADER, KIOSK_STAFF_PIN: '9999' });
		const now = new Date().toISOString();
		for (const [username, role] of [
			['olga', 'owner'],
			['vera', 'viewer']
		] as const) {
			await db.operator.create({ data: { username, role, passwordHash: await testPasswordHash(), createdAt: now } });
		}
		return {
			web,
			db,
			owner: await signIn(web, 'olga', TEST_PASSWORD),
			viewer: await signIn(web, 'vera', TEST_PASSWORD)
		};
	}
	const kioskCall = (web: BuiltWeb, key: string, path: string, body: unknown = {}) =>
		postJson(web, `/api/kiosk${path}`, body, { cookie: `kiosk_key=${key}` });

	it(
		'revoking a kiosk refuses its next API call; the console’s PIN is the one staff reset accepts',
		{ timeout: 120_000 },
		async () => {
			const { web, db, owner, viewer } = await start();
			const added = await callTrpc(web, owner, 'mutation', 'kiosks.add', { name: 'Hall A' });
			expect(added.status).toBe(200);
			const { key, pairingLink } = added.body.result!.data as { key: string; pairingLink: string };
			expect(pairingLink).toBe(`${web.origin}/kiosk#pair=${key}`);

			const hello = await kioskCall(web, key, '/hello');
			expect(hello.status).toBe(200);
			expect(await hello.json()).toMatchObject({ kiosk: { name: 'Hall A' }, staffPin: true });
			expect((await kioskCall(web, key, '/staff-reset', { pin: '9999' })).status).toBe(200);

			const viewerAdd = await callTrpc(web, viewer, 'mutation', 'kiosks.add', { name: 'Sneaky' });
			expect(viewerAdd.status).toBe(403);
			const viewerPin = await callTrpc(web, viewer, 'mutation', 'kiosks.setStaffPin', { pin: '1111' });
			expect(viewerPin.status).toBe(403);

			expect((await callTrpc(web, owner, 'mutation', 'kiosks.setStaffPin', { pin: '4821' })).status).toBe(200);
			const wrong = await kioskCall(web, key, '/staff-reset', { pin: '9999' });
			expect(wrong.status).toBe(403);
			expect(await wrong.json()).toMatchObject({ error: 'wrong_pin' });
			const right = await kioskCall(web, key, '/staff-reset', { pin: '4821' });
			expect(right.status).toBe(200);
			expect(await right.json()).toMatchObject({ ok: true });

			expect((await callTrpc(web, owner, 'mutation', 'kiosks.clearStaffPin')).status).toBe(200);
			const cleared = await kioskCall(web, key, '/staff-reset', { pin: '4821' });
			expect(cleared.status).toBe(403);
			expect(await cleared.json()).toMatchObject({ error: 'no_staff_pin' });
			expect(await (await kioskCall(web, key, '/hello')).json()).toMatchObject({ staffPin: false });

			const kioskId = (await db.kiosk.findUniqueOrThrow({ where: { name: 'Hall A' } })).id;
			expect((await callTrpc(web, owner, 'mutation', 'kiosks.revoke', { kioskId })).status).toBe(200);
			const refused = await kioskCall(web, key, '/sessions');
			expect(refused.status).toBe(401);
			expect(await refused.json()).toMatchObject({ error: 'no_kiosk_key' });
			expect((await kioskCall(web, key, '/hello')).status).toBe(401);
			expect((await postJson(web, '/api/kiosk/key', { key })).status).toBe(401);

			const audit = await db.auditLog.findMany({ where: { action: { startsWith: 'kiosk_' } }, orderBy: { id: 'asc' } });
			expect(audit.map((a) => [a.action, a.actor])).toEqual([
				['kiosk_add', 'olga'],
				['kiosk_revoke', 'olga']
			]);
			expect(audit.every((a) => a.ip === DEFAULT_TEST_IP)).toBe(true);
		}
	);
});
