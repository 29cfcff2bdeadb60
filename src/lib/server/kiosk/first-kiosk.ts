import type { Db } from '../db/client.ts';
import type { Logger } from '../log/logger.ts';
import { keepFirstRunSecret } from '../system/first-run-secrets.ts';
import type { Clock } from '../time/clock.ts';
import { ensureFirstKiosk } from './kiosk-keys.ts';

/**
 * First run: registers kiosk-1 and hands its key over once (like the console's setup link), so
 * the demo works. Only the key's hash is kept; the key goes to the first-run secrets file and the
 * terminal, never to the log. A lost key is replaced on the console's Kiosks page (or `npm run kiosk:add`).
 */
export async function announceFirstKiosk(app: {
	db: Db;
	clock: Clock;
	logger: Logger;
	config: { dataDir: string };
}): Promise<void> {
	const first = await ensureFirstKiosk(app.db, app.clock);
	if (!first) return;
	const file = keepFirstRunSecret(app.config.dataDir, app.clock, `First kiosk registered: ${first.name}`, [
		`kiosk key: ${first.key}`,
		'Open /kiosk on the kiosk device and enter this key once. It is shown only now;',
		"add more kiosks (with a QR code to pair the tablet) on the console's Kiosks page, or: npm run kiosk:add -- <name>"
	]);
	app.logger.info({ kiosk: first.name, file }, 'first kiosk registered; its key is in the first-run secrets file');
}
