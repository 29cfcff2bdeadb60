import { describe, expect, it } from 'vitest';
import { describeRecipient, plainFailure } from './recipient-outcome.ts';
import { RECIPIENT_REASON } from './recipient-reasons.ts';

const row = (state: string, error: string | null, attempts = 0) => ({
	state,
	error,
	attempts,
	sentAt: state === 'sent' ? '2026-06-01T10:00:05.000Z' : null,
	nextAttemptAt: state === 'queued' && attempts > 0 ? '2026-06-01T10:01:00.000Z' : null,
	updatedAt: '2026-06-01T10:00:07.000Z'
});

describe('a recipient row in the operator’s words', () => {
	it('says sent with the time it was sent, waiting with the next try', () => {
		expect(describeRecipient(row('sent', null))).toEqual({
			label: 'Sent',
			words: 'Sent: the guest got it.',
			when: { word: 'sent at', at: '2026-06-01T10:00:05.000Z' }
		});
		expect(describeRecipient(row('queued', null))).toMatchObject({
			label: 'Waiting',
			words: 'Waiting for its turn.',
			when: null
		});
		expect(describeRecipient(row('queued', "Call to 'sendMessage' failed! (502: Bad Gateway)", 2))).toMatchObject({
			words: 'Waiting: try 2 of 6 did not go through (Telegram’s servers answered with an error); it is tried again.',
			when: { word: 'next try at', at: '2026-06-01T10:01:00.000Z' }
		});
		expect(describeRecipient(row('queued', 'waiting out a Telegram flood hold (429)')).words).toBe(
			'Waiting: Telegram asked the bot to slow down; it goes out after the pause.'
		);
	});

	it('gives each reason a guest was skipped or not reached, without status codes', () => {
		const words = (state: string, error: string | null, attempts = 0) =>
			describeRecipient(row(state, error, attempts)).words;
		expect(words('skipped', RECIPIENT_REASON.optedOut)).toContain('opted out of news');
		expect(words('skipped', RECIPIENT_REASON.notOptedIn)).toContain('no longer agree to news');
		expect(words('skipped', RECIPIENT_REASON.gone)).toContain('erased');
		expect(words('skipped', RECIPIENT_REASON.cancelled)).toContain('cancelled');
		expect(words('blocked', RECIPIENT_REASON.blockedKnown)).toContain('had blocked the bot before');
		expect(words('blocked', RECIPIENT_REASON.blockedOnSend)).toBe(
			'Not delivered: they have blocked the bot, so Telegram refused the message.'
		);
		expect(words('failed', "Call to 'sendMessage' failed! (400: Bad Request: chat not found)", 1)).toContain(
			'Telegram has no chat with this person (chat not found)'
		);
		expect(words('failed', "Call to 'sendMessage' failed! (400: Bad Request: message is too long)", 1)).toBe(
			'Not delivered: Telegram refused the message (message is too long).'
		);
		expect(words('failed', "Call to 'sendMessage' failed! (500: Internal Server Error)", 6)).toBe(
			'Failed after 6 tries: Telegram’s servers answered with an error.'
		);
		expect(words('failed', "Network request for 'sendMessage' failed!", 6)).toBe(
			'Failed after 6 tries: the connection to Telegram broke.'
		);
		for (const [state, error] of [
			['blocked', RECIPIENT_REASON.blockedOnSend],
			['failed', "Call to 'sendMessage' failed! (400: Bad Request: chat not found)"],
			['failed', "Call to 'sendMessage' failed! (502: Bad Gateway)"]
		] as const)
			expect(words(state, error, 3)).not.toMatch(/\b(403|400|502)\b/);
	});

	it('leaves no status code in an unknown failure', () => {
		expect(plainFailure("Call to 'sendMessage' failed! (401: Unauthorized)")).toBe('(Unauthorized)');
	});
});
