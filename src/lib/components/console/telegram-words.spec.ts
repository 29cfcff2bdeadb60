import { describe, expect, it } from 'vitest';
import { telegramAnswerWords } from './telegram-words.ts';

describe('telegramAnswerWords', () => {
	it('says what Telegram answered without its status code', () => {
		const cases: [string, string][] = [
			[
				"Call to 'sendMessage' failed! (429: Too Many Requests: retry after 30)",
				'Telegram answered: too many requests — waiting 30 s'
			],
			[
				"Call to 'sendMessage' failed! (403: Forbidden: bot was blocked by the user)",
				'Telegram answered: the guest has blocked the bot'
			],
			[
				"Call to 'sendMessage' failed! (400: Bad Request: chat not found)",
				'Telegram answered: it has no chat with this person'
			],
			['Call failed! (500: Internal Server Error)', 'Telegram’s servers had a fault on their side'],
			[
				"Call to 'editMessageText' failed! (400: Bad Request: message to edit not found)",
				'Telegram refused the message: message to edit not found'
			],
			['fetch failed', 'the connection to Telegram broke']
		];
		for (const [error, words] of cases) {
			expect(telegramAnswerWords(error), error).toBe(words);
			expect(telegramAnswerWords(error)).not.toMatch(/\b[1-5]\d\d\b/);
		}
	});

	it('says nothing for no error', () => {
		expect(telegramAnswerWords(null)).toBe('');
	});
});
