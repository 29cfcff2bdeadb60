import { describe, expect, it } from 'vitest';
import { messageChatOf } from './send-budget-api.ts';

describe('which Bot API calls take a place in the send budget', () => {
	it('messages and edits to a chat do, with the chat they write to', () => {
		expect(messageChatOf('sendMessage', { chat_id: 42, text: 'hi' })).toBe(42n);
		expect(messageChatOf('editMessageText', { chat_id: -1001234567, message_id: 5, text: 'x' })).toBe(-1001234567n);
		expect(messageChatOf('sendPhoto', { chat_id: '77', photo: 'file' })).toBe(77n);
		expect(messageChatOf('copyMessage', { chat_id: 9, from_chat_id: 1, message_id: 2 })).toBe(9n);
	});

	it('answers to button presses, sticker sets and reads do not; nor an edit of an inline message or a @channel', () => {
		expect(messageChatOf('answerCallbackQuery', { callback_query_id: '1' })).toBeNull();
		expect(messageChatOf('addStickerToSet', { user_id: 42, name: 'pack' })).toBeNull();
		expect(messageChatOf('getMe', undefined)).toBeNull();
		expect(messageChatOf('editMessageText', { inline_message_id: 'abc', text: 'x' })).toBeNull();
		expect(messageChatOf('sendMessage', { chat_id: '@news', text: 'x' })).toBeNull();
	});
});
