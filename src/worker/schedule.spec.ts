import { describe, expect, it } from 'vitest';
import { parseConfig } from '../lib/server/config/config.ts';
import type { Db } from '../lib/server/db/client.ts';
import type { FileStore } from '../lib/server/files/file-store.ts';
import type { QueueDeps } from '../lib/server/jobs/run/queue-deps.ts';
import { silentLogger } from '../lib/server/log/logger.ts';
import type { TelegramApi } from '../lib/server/telegram/api.ts';
import { BotBudget } from '../lib/server/telegram/bot-budget.ts';
import { ChatCooldown } from '../lib/server/telegram/flood-control.ts';
import { FakeClock, HOUR, MINUTE, SECOND } from '../lib/server/time/clock.ts';
import { RuntimeSettings } from '../lib/server/settings/runtime-settings.ts';
import { ProviderSettingsInUse } from './tasks/runtime-settings.task.ts';
import { scheduledTask, workerSchedule, type WorkerScheduleDeps } from './schedule.ts';

/** The deps main.ts passes, as fakes: building the schedule must neither call nor send anything. */
function fakeDeps(calls: string[]) {
	const clock = new FakeClock('2027-03-01T10:00:00.000Z');
	const db = {
		workerProcess: { update: async (args: unknown) => void calls.push(`heartbeat ${JSON.stringify(args)}`) }
	} as unknown as Db;
	const budget = new BotBudget(db, clock, 'test');
	const deps: WorkerScheduleDeps = {
		config: parseConfig({ LEADS_CHAT_ID: '-100123' }, '/srv/kiosk'),
		db,
		clock,
		logger: silentLogger,
		fileStore: { kind: 'local' } as FileStore,
		workerId: 'host:1:1',
		pseudonymKey: Buffer.alloc(32),
		budget,
		sendPacing: { budget, sleep: async () => undefined },
		statusApi: {} as TelegramApi,
		bot: { api: {} as TelegramApi, isInited: () => false, botInfo: { username: 'kiosk_bot' } },
		updatesLease: { tick: async () => void calls.push('lease tick') },
		queue: { workerId: 'host:1:1', notices: { budget, cooldown: new ChatCooldown() } } as unknown as QueueDeps,
		jobLoop: { busySlots: 2 },
		runtime: new RuntimeSettings({ db, clock, config: parseConfig({}, '/srv/kiosk') }),
		providers: new ProviderSettingsInUse(parseConfig({}, '/srv/kiosk')),
		secrets: async () => ({ telegramBotToken: undefined, geminiApiKey: undefined, openaiApiKey: undefined }),
		stopping: new AbortController().signal
	};
	return deps;
}

const rowOf = (task: ReturnType<typeof workerSchedule>[number]) => [
	task.name,
	task.everyMs,
	task.runAtStart ?? false,
	task.oncePerPeriod ?? false,
	task.startNeedsClaim ?? false
];

describe('the worker schedule', () => {
	it('lists every task once, in registration order, with its period and fleet rules', () => {
		const calls: string[] = [];
		const schedule = workerSchedule(fakeDeps(calls));
		// A change here is a change to what the worker does and when: make it on purpose, with
		// docs/scale-out.md ("Once per period across the fleet") in the same change.
		// name, everyMs, runAtStart, oncePerPeriod, startNeedsClaim
		expect(schedule.map(rowOf)).toEqual([
			['task-runs-prune', HOUR, true, true, false],
			['heartbeat', 5 * SECOND, true, false, false],
			['send-budget-holds', 5 * SECOND, false, false, false],
			['ttl-sweep', HOUR, true, true, false],
			['retention', HOUR, true, true, false],
			['backup', HOUR, true, true, true],
			['log-prune', HOUR, true, true, false],
			['leads-publish', SECOND, true, false, false],
			['leads-repeats', 2 * SECOND, false, false, false],
			['leads-card-edits', 2 * SECOND, false, false, false],
			['leads-reminders', MINUTE, false, true, false],
			['leads-digest', MINUTE, true, true, false],
			['leads-retention', HOUR, true, true, false],
			['broadcasts-deliver', SECOND, true, false, false],
			['broadcasts-retention', HOUR, true, true, false],
			['session-timeouts', SECOND, true, false, false],
			['bot-username', SECOND, true, false, false],
			['telegram-updates-lease', 5 * SECOND, true, false, false],
			['guest-notices', 500, true, false, false],
			['guest-status', SECOND, true, false, false],
			['sticker-redraws', SECOND, true, false, false],
			['job-deadlines', 5 * SECOND, true, true, false],
			['model-check', HOUR, true, true, false],
			['rpd-warning', MINUTE, false, true, false],
			['admin-alerts', 2 * SECOND, true, false, false],
			['admin-alerts-retention', HOUR, true, true, false],
			['runtime-settings', 5 * SECOND, true, false, false]
		]);
		expect(new Set(schedule.map((task) => task.name)).size).toBe(schedule.length);
		expect(calls).toEqual([]);
	});

	it('gives every fleet-wide task a period, and the start claim only to fleet-wide ones', () => {
		const schedule = workerSchedule(fakeDeps([]));
		const fleetWide = schedule.filter((task) => task.oncePerPeriod);
		expect(fleetWide.length).toBeGreaterThan(0);
		for (const task of fleetWide) {
			// The period is the claim's key in scheduled_task_runs: counted from the epoch, whole milliseconds.
			expect(Number.isInteger(task.everyMs), task.name).toBe(true);
			expect(task.everyMs, task.name).toBeGreaterThan(0);
		}
		expect(schedule.filter((task) => task.startNeedsClaim && !task.oncePerPeriod).map((task) => task.name)).toEqual([]);
	});

	it('wires each body to the deps it was built from', async () => {
		const calls: string[] = [];
		const schedule = workerSchedule(fakeDeps(calls));
		const byName = new Map(schedule.map((task) => [task.name, task]));
		await byName.get('telegram-updates-lease')!.run();
		await byName.get('heartbeat')!.run();
		expect(calls).toEqual([
			'lease tick',
			`heartbeat ${JSON.stringify({ where: { id: 'host:1:1' }, data: { heartbeatAt: '2027-03-01T10:00:00.000Z', busySlots: 2 } })}`
		]);
	});

	it('gives a task built on its own (tests) the same period and rules as the schedule', () => {
		const run = async () => {};
		expect(scheduledTask('backup', run)).toEqual({
			name: 'backup',
			everyMs: HOUR,
			runAtStart: true,
			oncePerPeriod: true,
			startNeedsClaim: true,
			run
		});
	});
});
