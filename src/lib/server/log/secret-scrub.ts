/**
 * The last guard before a log line leaves the process, for stdout and the log table alike.
 * Field-name redaction (logger.ts) cannot see secrets that arrive inside values: a Telegram
 * network error carries the request URL `…/bot<token>/getMe` in its nested cause, a link carries a
 * one-time token in its query. These are cut wherever in the line they sit, at any depth.
 */

/** A bot token (`<bot id>:<secret>`, the `:` also URL-encoded), as @BotFather issues them. */
const BOT_TOKEN = /\d{3,}(?::|%3A)[\w-]{20,}/gi;

/** One-time links carry their secret in the query (the console setup link: `?token=`). */
export function scrubLinkSecrets(text: string): string {
	return text.replace(/([?&](?:token|key|secret)=)[^&\s"'\\]+/gi, '$1[redacted]');
}

export function scrubSecrets(text: string): string {
	return scrubLinkSecrets(text.replace(BOT_TOKEN, '[redacted]'));
}
