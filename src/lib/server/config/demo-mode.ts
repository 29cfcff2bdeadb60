import type { Logger } from '../log/logger.ts';
import type { Config } from './config.ts';

/** Whether no real bot is behind the product: the local Telegram emulator stands in for Telegram. */
export function isDemo(config: Pick<Config, 'telegram'>): boolean {
	return config.telegram.mode === 'emulator';
}

/**
 * In production the demo runs only with DEMO_MODE=1 (env.schema.ts) and says so at every start of
 * each process: a warning in the log (so on the console's Logs page too) and a banner on stderr.
 * /health carries `demo: true` as well.
 */
export function announceDemoMode(config: Config, logger: Logger): void {
	if (config.NODE_ENV !== 'production' || !isDemo(config)) return;
	logger.warn(
		{ apiRoot: config.telegram.apiRoot },
		'DEMO MODE (DEMO_MODE=1): no TELEGRAM_BOT_TOKEN, the bot talks to the local Telegram emulator'
	);
	const rule = '!'.repeat(78);
	process.stderr.write(
		[
			rule,
			'!!  DEMO MODE: this production instance is not connected to Telegram.',
			`!!  The bot talks plain HTTP to a local emulator at ${config.telegram.apiRoot}.`,
			'!!  Set TELEGRAM_BOT_TOKEN and remove DEMO_MODE=1 to run it for real.',
			rule,
			''
		].join('\n')
	);
}
