import type { Db } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';
import { ensureFirstKiosk } from './kiosk-keys.ts';

/**
 * First run: registers kiosk-1 and prints its key once (like the first operator password), so
 * the demo works. Only the key's hash is kept; a lost key is replaced with `scripts/kiosk-add.ts`.
 */
export async function announceFirstKiosk(app: { db: Db; clock: Clock }): Promise<void> {
	const first = await ensureFirstKiosk(app.db, app.clock);
	if (!first) return;
	console.log(
		[
			'',
			`First kiosk registered: ${first.name}`,
			`  kiosk key: ${first.key}`,
			'  Open /kiosk on the kiosk device and enter this key once. It is shown only now;',
			'  make more keys with: node --import tsx scripts/kiosk-add.ts <name>',
			''
		].join('\n')
	);
}
