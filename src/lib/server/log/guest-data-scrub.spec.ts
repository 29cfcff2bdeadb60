import { describe, expect, it } from 'vitest';
import { pseudonymiserFor, REMOVED, scrubGuestData } from './guest-data-scrub.ts';

describe('scrubGuestData', () => {
	const pseudonymise = (id: bigint) => `g_${id}`;

	it('keeps job and lead numbers, error descriptions and staff names; pseudonymises id fields holding numbers', () => {
		const fields = {
			jobId: 12,
			leadId: 3,
			by: 'olga',
			chatId: -1001234567890,
			userId: '555000111',
			err: { description: 'Bad Request: chat not found', error_code: 400 }
		};
		expect(scrubGuestData(fields, pseudonymise)).toEqual({
			...fields,
			chatId: 'g_-1001234567890',
			userId: 'g_555000111'
		});
	});

	it('inside a payload every string goes and every id is pseudonymised, also in arrays; numbers such as message ids stay', () => {
		const fields = {
			err: {
				payload: {
					chat_id: 42,
					text: 'hi',
					reply_markup: { inline_keyboard: [[{ text: 'Yes', callback_data: 'consent:yes' }]] },
					message_id: 7
				}
			}
		};
		expect(scrubGuestData(fields, pseudonymise)).toEqual({
			err: {
				payload: {
					chat_id: 'g_42',
					text: REMOVED,
					reply_markup: { inline_keyboard: [[{ text: REMOVED, callback_data: REMOVED }]] },
					message_id: 7
				}
			}
		});
	});

	it('a string "message" (an error message) stays; a message object is a payload', () => {
		expect(
			scrubGuestData({ err: { message: 'socket hang up' }, message: { text: 'hello', from: { id: 9 } } }, pseudonymise)
		).toEqual({
			err: { message: 'socket hang up' },
			message: { text: REMOVED, from: { id: 'g_9' } }
		});
	});

	it('without the key an id is only marked', () => {
		expect(scrubGuestData({ telegramUserId: 5 }, pseudonymiserFor(undefined))).toEqual({
			telegramUserId: '[telegram id]'
		});
	});
});
