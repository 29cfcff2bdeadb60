import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NODE_BUNDLES } from '../../src/lib/server/config/node-bundles.ts';
import type { Db } from '../../src/lib/server/db/client.ts';
import { rememberBotUsername } from '../../src/lib/server/guests/bot-identity.ts';
import { createKiosk } from '../../src/lib/server/kiosk/kiosk-keys.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { useBuiltWeb, type BuiltWeb } from '../helpers/built-web.ts';
import { isProcessAlive } from '../helpers/node-process.ts';
import { eventually } from './guest-harness.ts';
import { selfieJpeg } from './guest-photos.ts';

/**
 * The built web server's upload checker process: none before a kiosk session starts; started by
 * Start (warm before the photo comes), the photo checked by that same process; and gone when the
 * web process stops — by SIGTERM, or SIGKILL where nothing of the web process runs any more.
 */
describe('the web process’s upload checker', () => {
	const builtWeb = useBuiltWeb('web-checker-');

	/** Processes whose parent is `pid` and that run the checker's entry. */
	function checkersOf(pid: number): number[] {
		const found: number[] = [];
		for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
			try {
				const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
				const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
				if (
					parent === pid &&
					readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(NODE_BUNDLES.uploadChecker.bundle)
				)
					found.push(Number(entry));
			} catch {
				// the process ended while we looked
			}
		}
		return found;
	}

	async function startAndWarm(): Promise<{ web: BuiltWeb; db: Db; cookie: string; token: string; checker: number }> {
		const { web, db } = await builtWeb.start();
		const { key } = await createKiosk(db, systemClock, 'hall-a');
		await rememberBotUsername(db, systemClock, 'hall_kiosk_bot');
		const cookie = `kiosk_key=${key}`;
		expect(checkersOf(web.pid)).toEqual([]);
		const started = await fetch(`${web.base}/api/kiosk/sessions`, {
			method: 'POST',
			headers: { cookie, origin: web.base, 'content-type': 'application/json' },
			body: '{}'
		});
		expect(started.status).toBe(201);
		const { token } = (await started.json()) as { token: string };
		await eventually(async () => web.output().includes('"msg":"upload checker ready"'), Boolean, 30_000);
		const [checker, ...others] = checkersOf(web.pid);
		expect([typeof checker, others]).toEqual(['number', []]);
		return { web, db, cookie, token, checker: checker! };
	}

	it('Start warms it up; the selfie is checked by that process; SIGKILL of the web process leaves no orphan', async () => {
		const { web, db, cookie, token, checker } = await startAndWarm();
		const now = new Date().toISOString();
		await db.user.create({ data: { telegramUserId: 42n, createdAt: now } });
		await db.session.update({
			where: { sessionToken: token },
			data: { status: 'template_chosen', templateId: 'knight', telegramUserId: 42n, updatedAt: now }
		});
		const upload = await fetch(`${web.base}/api/kiosk/sessions/${token}/photo?locale=en`, {
			method: 'POST',
			headers: { cookie, origin: web.base, 'content-type': 'image/jpeg' },
			body: new Uint8Array(await selfieJpeg())
		});
		expect(upload.status).toBe(201);
		expect(checkersOf(web.pid)).toEqual([checker]);
		expect(web.output().match(/"msg":"upload checker ready"/g)).toHaveLength(1);

		process.kill(web.pid, 'SIGKILL');
		await eventually(
			async () => isProcessAlive(checker),
			(running) => !running,
			10_000
		);
	}, 90_000);

	it('a web process stopped with SIGTERM ends its checker', async () => {
		const { web, checker } = await startAndWarm();
		await web.stop();
		await eventually(
			async () => isProcessAlive(checker),
			(running) => !running,
			10_000
		);
	}, 90_000);
});
