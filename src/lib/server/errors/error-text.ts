/**
 * Anything thrown, as a short one-line string for a row, a log field or an alert: the message of an
 * Error, String() of anything else, whitespace runs (a provider's pretty-printed JSON, a stack-like
 * multi-line message) folded to one space, cut to `maxLength`. The one way to do it, so every
 * outbox row, job error and log line reads alike.
 */
export interface ErrorTextOptions {
	/**
	 * "<name>: <message>" when the error is a subclass (ProviderError, TypeError; a plain Error has
	 * no prefix). The job's error column uses it: the console and tests tell a provider's refusal
	 * from a bug in our code by it.
	 */
	named?: boolean;
	/**
	 * A driver's string `code` (SQLITE_BUSY, P1001, ECONNRESET) instead of the message when it has
	 * one. The log sink reports its own trouble with it: the code is the whole story there, and the
	 * message of a busy database can be long and repeats every retry.
	 */
	preferCode?: boolean;
}

export const DEFAULT_ERROR_TEXT_LENGTH = 300;

export function errorText(
	error: unknown,
	maxLength = DEFAULT_ERROR_TEXT_LENGTH,
	options: ErrorTextOptions = {}
): string {
	const code = options.preferCode ? (error as { code?: unknown } | null | undefined)?.code : undefined;
	const text =
		typeof code === 'string'
			? code
			: error instanceof Error
				? `${options.named && error.name !== 'Error' ? `${error.name}: ` : ''}${error.message}`
				: String(error);
	return text.replace(/\s+/g, ' ').trim().slice(0, maxLength);
}
