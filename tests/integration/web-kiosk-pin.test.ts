import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createKiosk } from '../../src/lib/server/kiosk/kiosk-keys.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { CLIENT_ADDRESS_FROM_HEADER, cookiesFrom, postJson, useBuiltWeb, type BuiltWeb } from '../helpers/built-web.ts';

const STAFF_PIN = '4321';
const KIOSK_ADDRESS = '198.51.100.7';

/** Runs `count` calls with at most `width` in flight. */
async function inPool(count: number, width: number, call: (i: number) => Promise<unknown>): Promise<void> {
	let next = 0;
	await Promise.all(
		Array.from({ length: width }, async () => {
			while (next < count) await call(next++);
		})
	);
}

/** The staff PIN and the kiosk key endpoint against the built server. */
describe('kiosk staff PIN and key entry over HTTP', () => {
	const builtWeb = useBuiltWeb('web-kiosk-pin-');
	let kioskKey = '';
	async function start(): Promise<BuiltWeb> {
		const { web, db } = await builtWeb.start({ ...CLIENT_ADDRESS_FROM_HEADER, KIOSK_STAFF_PIN: STAFF_PIN });
		kioskKey = (await createKiosk(db, systemClock, 'hall-a')).key;
		return web;
	}
	const tryPin = (web: BuiltWeb, pin: string) =>
		postJson(web, '/api/kiosk/staff-reset', { pin }, { cookie: `kiosk_key=${kioskKey}`, ip: KIOSK_ADDRESS });
	const junkKey = () => `kk_${randomBytes(32).toString('base64url')}`;

	it(
		'finding 12: wrong staff PINs lock the kiosk, and a flood of the key endpoint from other addresses cannot reset the count',
		{ timeout: 300_000 },
		async () => {
			const web = await start();
			const statuses = async (pins: string[]) => {
				const out: number[] = [];
				for (const pin of pins) out.push((await tryPin(web, pin)).status);
				return out;
			};
			expect(await statuses(['0000', '1111', '2222'])).toEqual([403, 403, 403]);

			// Ten thousand key attempts from as many addresses fill any in-memory table of limits.
			await inPool(10_050, 32, (i) =>
				postJson(
					web,
					'/api/kiosk/key',
					{ key: junkKey() },
					{ ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` }
				)
			);

			// The count went on where it was: the fourth wrong PIN starts the lockout, and then even the right one waits.
			expect(await statuses(['3333'])).toEqual([403]);
			const locked = await tryPin(web, STAFF_PIN);
			expect(locked.status).toBe(429);
			expect(await locked.json()).toMatchObject({ error: 'pin_locked' });
			const wait = Number(locked.headers.get('retry-after'));
			expect(wait).toBeGreaterThan(20);
			expect(wait).toBeLessThanOrEqual(30);
		}
	);

	it(
		'finding 12: a flood of wrong keys from the kiosk’s own address does not starve the real kiosk',
		{ timeout: 60_000 },
		async () => {
			const web = await start();
			const fromKiosk = (key: string) => postJson(web, '/api/kiosk/key', { key }, { ip: KIOSK_ADDRESS });
			const junk = await Promise.all(Array.from({ length: 40 }, () => fromKiosk(junkKey())));
			expect(junk.every((answer) => answer.status === 401 || answer.status === 429)).toBe(true);
			// The same wrong key again and again is slowed down.
			const repeated = junkKey();
			const again: number[] = [];
			for (let i = 0; i < 8; i++) again.push((await fromKiosk(repeated)).status);
			expect(again).toContain(429);
			expect(again.at(-1)).toBe(429);

			const real = await fromKiosk(kioskKey);
			expect(real.status).toBe(200);
			expect(cookiesFrom(real)).toContain(`kiosk_key=${kioskKey}`);
			expect(await real.json()).toEqual({ kiosk: { name: 'hall-a' } });
		}
	);
});
