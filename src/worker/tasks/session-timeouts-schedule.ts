import type { Config } from '../../lib/server/config/config.ts';
import type { Db } from '../../lib/server/db/client.ts';
import { rememberBotUsername } from '../../lib/server/guests/bot-identity.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import type { TelegramApi } from '../../lib/server/telegram/api.ts';
import type { Clock } from '../../lib/server/time/clock.ts';
import type { Scheduler } from '../scheduler.ts';
import { sessionTimeoutsTask } from './session-timeouts.task.ts';

/** The bot as these tasks use it: its Api, and its identity once getMe has answered. */
interface RunningBot {
	api: TelegramApi;
	isInited(): boolean;
	readonly botInfo: { username: string };
}

/**
 * The guest flow's worker tasks: the session clock and publishing the bot's @username (learnt
 * from getMe) for the web process's kiosk QR codes. The guest notices run with the generation
 * tasks (queue/generation-schedule.ts).
 */
export function scheduleGuestTasks(scheduler: Scheduler, deps: { db: Db; clock: Clock; logger: Logger; config: Config; bot: RunningBot }): void {
	const { db, clock, logger, config, bot } = deps;
	scheduler.add(sessionTimeoutsTask({ db, clock, logger, config, api: bot.api }));
	let published: string | undefined;
	scheduler.add({
		name: 'bot-username',
		everyMs: 1_000,
		runAtStart: true,
		run: async () => {
			const username = bot.isInited() ? bot.botInfo.username : undefined;
			if (!username || username === published) return;
			await rememberBotUsername(db, clock, username);
			published = username;
			logger.info({ username }, 'bot username published for kiosk QR codes');
		}
	});
}
