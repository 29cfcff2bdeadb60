import { Api } from 'grammy';
import { describe, expect, it } from 'vitest';
import { EMULATOR_BOT_TOKEN } from '../../src/lib/server/config/config.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { alertAdmins, deliverAdminAlerts, type NoticeDeps } from '../../src/lib/server/telegram/admin-alerts.ts';
import { ChatCooldown } from '../../src/lib/server/telegram/flood-control.ts';
import { startedUser } from '../../tools/telegram-emulator/test-support.ts';
import { useSendBudgetWorld } from '../helpers/send-budget-world.ts';

/**
 * Admin alerts used to be sent straight away and, when Telegram answered 429 or 5xx, logged and
 * lost. Now each is a row in admin_alerts sent through the outbox driver: a refused alert stays
 * queued on the one failure ladder (a 429 waits its retry_after and holds the bot's budget, a 5xx
 * backs off) and a later pass — the worker's `admin-alerts` task — sends it. The emulator injects
 * the faults; time is the FakeClock the budget's waits move. On both engines (TEST_DB_ENGINE).
 */
describe('admin alerts survive Telegram’s refusals', () => {
	const sendBudgetWorld = useSendBudgetWorld('admin-alerts-outbox-');

	async function world() {
		const world = await sendBudgetWorld();
		// The alerts' kind of client: no auto-retry, so a refusal reaches the outbox's ladder.
		const api = new Api(EMULATOR_BOT_TOKEN, { apiRoot: world.emulator.url });
		const deps: NoticeDeps = {
			db: world.db,
			clock: world.clock,
			api,
			logger: silentLogger,
			pacing: world.pacingOn(world.db),
			cooldown: new ChatCooldown()
		};
		const alertsIn = async (chat: number) =>
			(await world.emulator.control.chatMessages(chat)).filter((m) => m.from_bot && /paused/.test(m.text ?? ''));
		const rowOf = async (chat: number) => world.db.adminAlert.findFirstOrThrow({ where: { chatId: BigInt(chat) } });
		return { ...world, deps, alertsIn, rowOf };
	}

	const TEXT = 'The queue is paused: the image provider refuses our access.';

	it('a 429 with retry_after: queued until it ends, then sent once; the other admin hears at once', async () => {
		const { emulator, clock, deps, alertsIn, rowOf, pacingOn, db } = await world();
		const [refused, other] = [await startedUser(emulator, 'Admin A'), await startedUser(emulator, 'Admin B')];
		await emulator.control.injectFault({ method: 'sendMessage', chat_id: refused, kind: '429', retry_after: 3 });

		await alertAdmins(deps, [BigInt(refused), BigInt(other)], TEXT);

		expect(await alertsIn(refused)).toHaveLength(0);
		expect(await alertsIn(other)).toHaveLength(1);
		const queued = await rowOf(refused);
		expect(queued).toMatchObject({ state: 'queued', attempts: 0 }); // a 429 is no counted attempt
		expect(Date.parse(queued.nextAttemptAt!)).toBe(clock.now().getTime() + 3000);
		expect(await pacingOn(db).budget.holdMs()).toBe(3000); // every worker's broadcasts wait it out too

		clock.advance(2000);
		expect(await deliverAdminAlerts(deps)).toBe(0); // not before its retry_after
		clock.advance(1000);
		expect(await deliverAdminAlerts(deps)).toBe(1);
		expect(await alertsIn(refused)).toHaveLength(1);
		expect(await rowOf(refused)).toMatchObject({ state: 'sent', attempts: 1 });
		expect(await alertsIn(other)).toHaveLength(1);
	});

	it('a 502: backed off on the ladder, sent by a later pass', async () => {
		const { emulator, clock, deps, alertsIn, rowOf } = await world();
		const admin = await startedUser(emulator, 'Admin A');
		await emulator.control.injectFault({ method: 'sendMessage', chat_id: admin, kind: '5xx', status: 502, times: 2 });

		await alertAdmins(deps, [BigInt(admin)], TEXT);
		expect(await alertsIn(admin)).toHaveLength(0);
		const first = await rowOf(admin);
		expect(first).toMatchObject({ state: 'queued', attempts: 1 });
		expect(first.error).toMatch(/502/);

		// The second try fails too (the fault's second time), the third gets through.
		clock.advance(Date.parse(first.nextAttemptAt!) - clock.now().getTime());
		expect(await deliverAdminAlerts(deps)).toBe(0);
		const second = await rowOf(admin);
		expect(second).toMatchObject({ state: 'queued', attempts: 2 });
		expect(Date.parse(second.nextAttemptAt!)).toBeGreaterThan(clock.now().getTime());
		clock.advance(Date.parse(second.nextAttemptAt!) - clock.now().getTime());
		expect(await deliverAdminAlerts(deps)).toBe(1);
		expect(await alertsIn(admin)).toHaveLength(1);
		expect(await rowOf(admin)).toMatchObject({ state: 'sent', attempts: 3, error: null });
		const calls = (await emulator.control.callCounts()).calls.filter(
			(call) => call.method === 'sendMessage' && call.chat_id === admin
		);
		expect(calls.map((call) => call.outcome)).toEqual([502, 502, 200]);
	});

	it('an admin who blocked the bot ends as blocked, not retried', async () => {
		const { emulator, deps, rowOf } = await world();
		const admin = await startedUser(emulator, 'Admin A');
		await emulator.control.setBlocked(admin, true);
		await alertAdmins(deps, [BigInt(admin)], TEXT);
		expect((await rowOf(admin)).state).toBe('blocked');
	});
});
