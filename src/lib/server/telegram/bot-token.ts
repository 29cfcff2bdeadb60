import { Api, GrammyError, type ApiClientOptions } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';

/**
 * The worker's bot token in force. Every Telegram client the worker builds (the bot's, the
 * outboxes', the admin alerts') reads it at each call through `clientOptions`, so a token replaced
 * on the console (worker/bot/bot-token-switch.ts) is used by all of them from the moment it is
 * swapped, without rebuilding the clients the tasks already hold.
 */
export class BotTokenInForce {
	#value: string;

	constructor(token: string) {
		this.#value = token;
	}

	get value(): string {
		return this.#value;
	}

	replace(token: string): void {
		this.#value = token;
	}
}

/** Where a client reaches the Bot API: a fixed token, or (in the worker) the token in force. */
export interface TelegramEndpoint {
	token: string;
	apiRoot: string;
	tokenInForce?: { readonly value: string };
}

/** grammY's client options for an endpoint: the URL is built with the token in force at each call. */
export function clientOptions(endpoint: TelegramEndpoint, timeoutSeconds?: number): ApiClientOptions {
	const inForce = endpoint.tokenInForce;
	return {
		apiRoot: endpoint.apiRoot,
		...(timeoutSeconds === undefined ? {} : { timeoutSeconds }),
		// grammY's own URL (`<root>/bot<token>/<method>`), with the token read now rather than at construction.
		...(inForce
			? {
					buildUrl: (root, _token, method, env) =>
						`${root}/bot${inForce.value}/${env === 'test' ? 'test/' : ''}${method}`
				}
			: {})
	};
}

/** Telegram refusing a token itself (401: revoked or wrong secret; 404: not a token), not a failed call. */
export const isTokenRefusal = (error: unknown): error is GrammyError =>
	error instanceof GrammyError && (error.error_code === 401 || error.error_code === 404);

/** A token's getMe may take this long; then its caller goes on without the answer (and asks again later). */
const PROBE_TIMEOUT_SECONDS = 10;

/** Which bot a token belongs to, by Telegram's getMe: throws what grammY throws (see isTokenRefusal). */
export function probeBotToken(token: string, apiRoot: string): Promise<UserFromGetMe> {
	return new Api(token, { apiRoot, timeoutSeconds: PROBE_TIMEOUT_SECONDS }).getMe();
}
