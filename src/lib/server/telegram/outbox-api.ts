import { Api } from 'grammy';
import { SECOND } from '../time/clock.ts';
import { clientOptions, type TelegramEndpoint } from './bot-token.ts';

const REQUEST_TIMEOUT_SECONDS = 30;

/** How long a claimed outbox row is left alone: well past one call's REQUEST_TIMEOUT_SECONDS. */
export const OUTBOX_LEASE_MS = 2 * 60 * SECOND;

/**
 * The outboxes' own Telegram client, without the auto-retry the bot uses: a network error or 5xx
 * on sendMessage is ambiguous (the message may have been posted), and a blind retry inside the
 * same call is how cards get posted twice. Failures go back to the outbox instead, which retries
 * on its own schedule and honours 429's retry_after through next_publish_at. In the worker it
 * reads the bot token in force at each call (bot-token.ts).
 */
export function createOutboxApi(telegram: TelegramEndpoint, timeoutSeconds = REQUEST_TIMEOUT_SECONDS): Api {
	return new Api(telegram.token, clientOptions(telegram, timeoutSeconds));
}
