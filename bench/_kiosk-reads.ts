import type { Db } from '../src/lib/server/db/client.ts';
import { rememberBotUsername } from '../src/lib/server/guests/bot-identity.ts';
import { createKiosk } from '../src/lib/server/kiosk/kiosk-keys.ts';
import { systemClock } from '../src/lib/server/time/clock.ts';

/**
 * The kiosk's status read as the kiosk page does it: the key typed once (POST /api/kiosk/key sets
 * the cookie), Start (POST /api/kiosk/sessions), then GET /api/kiosk/sessions/<token> over and over.
 */
export interface KioskStatus {
	url: string;
	cookie: string;
}

export async function openKioskStatus(base: string, db: Db): Promise<KioskStatus> {
	const { key } = await createKiosk(db, systemClock, 'bench-kiosk');
	await rememberBotUsername(db, systemClock, 'bench_kiosk_bot');
	const entered = await fetch(`${base}/api/kiosk/key`, {
		method: 'POST',
		headers: { origin: base, 'content-type': 'application/json' },
		body: JSON.stringify({ key })
	});
	if (!entered.ok) throw new Error(`the kiosk key was refused: ${entered.status} ${await entered.text()}`);
	const cookie = (entered.headers.get('set-cookie') ?? '').split(';')[0]!;
	const started = await fetch(`${base}/api/kiosk/sessions`, { method: 'POST', headers: { origin: base, cookie } });
	if (started.status !== 201) throw new Error(`Start answered ${started.status}: ${await started.text()}`);
	const { token } = (await started.json()) as { token: string };
	return { url: `${base}/api/kiosk/sessions/${token}`, cookie };
}

/** `count` status reads, `concurrency` at a time; each one's time from request to the last byte. */
export async function timeStatusReads(status: KioskStatus, count: number, concurrency: number): Promise<number[]> {
	const samples: number[] = [];
	let next = 0;
	const reader = async () => {
		while (next++ < count) {
			const start = performance.now();
			const response = await fetch(status.url, { headers: { cookie: status.cookie } });
			await response.arrayBuffer();
			if (!response.ok) throw new Error(`${status.url} answered ${response.status}`);
			samples.push(performance.now() - start);
		}
	};
	await Promise.all(Array.from({ length: concurrency }, reader));
	return samples;
}
