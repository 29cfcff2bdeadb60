/**
 * A failed Telegram send as the console says it: what Telegram answered, in words, never its
 * status code ("Call to 'sendMessage' failed! (429: Too Many Requests: retry after 30)" →
 * "Telegram answered: too many requests — waiting 30 s"). Pure; browser and server alike. The
 * broadcast results have their own fuller sentences (broadcasts/recipient-outcome.ts).
 */
export function telegramAnswerWords(error: string | null): string {
	if (!error) return '';
	const answer = /\((\d{3}): ([^)]*)\)/.exec(error);
	const code = answer ? Number(answer[1]) : null;
	const said = answer?.[2] ?? error;
	const retryAfter = /retry after (\d+)/i.exec(error)?.[1];
	if (code === 429 || /too many requests|flood/i.test(error))
		return `Telegram answered: too many requests — ${retryAfter ? `waiting ${retryAfter} s` : 'waiting a little'}`;
	if (/blocked by the user|bot was blocked/i.test(error)) return 'Telegram answered: the guest has blocked the bot';
	if (/chat not found/i.test(error)) return 'Telegram answered: it has no chat with this person';
	if (/user is deactivated/i.test(error)) return 'Telegram answered: this account was deleted';
	if ((code !== null && code >= 500) || /internal server error|bad gateway|service unavailable/i.test(error))
		return 'Telegram’s servers had a fault on their side';
	if (/timed? ?out|ETIMEDOUT|abort/i.test(error)) return 'Telegram did not answer in time';
	if (/network|ECONNRESET|ECONNREFUSED|socket|fetch failed/i.test(error)) return 'the connection to Telegram broke';
	if (code === 401 || code === 404) return 'Telegram refused the bot’s token';
	if (code !== null && code >= 400)
		return `Telegram refused the message: ${said.replace(/^Bad Request: /i, '').replace(/^Forbidden: /i, '')}`;
	return error.replace(/^Call to '\w+' failed! /, '');
}
