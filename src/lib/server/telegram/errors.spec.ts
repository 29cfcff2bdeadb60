import { GrammyError } from 'grammy';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../time/clock.ts';
import {
	isBlockedByUser,
	isNotModified,
	isStickerSetMissing,
	isUneditable,
	isUnreachableChat,
	retryAfterMs
} from './errors.ts';
import { ChatCooldown, noteFloodControl } from './flood-control.ts';

/** An error exactly as grammY throws it for a Bot API answer with ok: false. */
function telegramError(error_code: number, description: string, retry_after?: number): GrammyError {
	const parameters = retry_after === undefined ? {} : { retry_after };
	const answer = { ok: false as const, error_code, description, parameters };
	return new GrammyError(`Call failed! (${error_code}: ${description})`, answer, 'sendMessage', {});
}

describe("Telegram's error answers", () => {
	it('tells an edit that changes nothing from edits that can never succeed', () => {
		const unchanged = telegramError(
			400,
			'Bad Request: message is not modified: specified new message content is the same'
		);
		const gone = telegramError(400, 'Bad Request: message to edit not found');
		const tooOld = telegramError(400, "Bad Request: message can't be edited");
		expect([isNotModified(unchanged), isNotModified(gone)]).toEqual([true, false]);
		expect([isUneditable(gone), isUneditable(tooOld), isUneditable(unchanged)]).toEqual([true, true, false]);
	});

	it('knows a sticker set that is not there, and nothing else, as missing', () => {
		expect(isStickerSetMissing(telegramError(400, 'Bad Request: STICKERSET_INVALID'))).toBe(true);
		expect(isStickerSetMissing(telegramError(400, 'Bad Request: STICKERS_TOO_MUCH'))).toBe(false);
		expect(isStickerSetMissing(new Error('STICKERSET_INVALID'))).toBe(false);
	});

	it('treats a blocked bot as unreachable, and a missing chat as unreachable but not blocked', () => {
		const blocked = telegramError(403, 'Forbidden: bot was blocked by the user');
		const noChat = telegramError(400, 'Bad Request: chat not found');
		const serverError = telegramError(502, 'Bad Gateway');
		expect([isBlockedByUser(blocked), isBlockedByUser(noChat)]).toEqual([true, false]);
		expect([isUnreachableChat(blocked), isUnreachableChat(noChat), isUnreachableChat(serverError)]).toEqual([
			true,
			true,
			false
		]);
	});

	it('reads retry_after only from a 429 and keeps the chat quiet that long', () => {
		const flood = telegramError(429, 'Too Many Requests: retry after 7', 7);
		const others = [telegramError(400, 'Bad Request'), new Error('boom')];
		expect([flood, ...others].map(retryAfterMs)).toEqual([7000, 0, 0]);
		const clock = new FakeClock();
		const deps = { cooldown: new ChatCooldown(), clock };
		expect(noteFloodControl(deps, -100n, flood)).toBe(7000);
		clock.advance(6999);
		expect([deps.cooldown.isCooling(-100n, clock.now()), deps.cooldown.isCooling(-200n, clock.now())]).toEqual([
			true,
			false
		]);
		clock.advance(1);
		expect(deps.cooldown.isCooling(-100n, clock.now())).toBe(false);
	});
});
