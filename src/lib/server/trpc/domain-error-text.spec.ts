import { describe, expect, it } from 'vitest';
import { consoleSentence } from './domain-error-text.ts';

describe('the console sentence for each refusal of the domain', () => {
	it('words the facts of every refusal the way operators read them', () => {
		expect(consoleSentence({ code: 'GuestNotFound', telegramUserId: 123n, perhapsReset: true })).toBe(
			'There is no guest 123 (already reset?).'
		);
		expect(consoleSentence({ code: 'GuestNotFound', telegramUserId: 123n, perhapsReset: false })).toBe(
			'There is no guest 123.'
		);
		expect(consoleSentence({ code: 'GuestPackInProgress', telegramUserId: 1n })).toBe(
			'This guest’s pack is being made right now. Reset once the job is done or failed.'
		);
		expect(consoleSentence({ code: 'ResetBackupFailed' })).toBe(
			'The database backup before the reset failed, so nothing was deleted. Check disk space and try again.'
		);
		expect(consoleSentence({ code: 'JobNotFound', jobId: 7 })).toBe(
			'Job 7 does not exist (the guest may have been reset).'
		);
		expect(consoleSentence({ code: 'JobNotRetryable', jobId: 7, status: 'queued' })).toBe(
			'Job 7 is queued, not failed, so there is nothing to retry.'
		);
		expect(consoleSentence({ code: 'JobNotRetryable', jobId: 7, status: null })).toBe(
			'Job 7 is gone, not failed, so there is nothing to retry.'
		);
		expect(consoleSentence({ code: 'StickerOutOfRange', stickerNumber: 13, stickers: 12 })).toBe(
			'There is no sticker 13: a pack has stickers 1 to 12.'
		);
		expect(consoleSentence({ code: 'PackNotDelivered', jobId: 7, status: 'queued' })).toBe(
			'Job 7 is queued: only a delivered pack can have a sticker redrawn.'
		);
		expect(consoleSentence({ code: 'RedrawInProgress', stickerNumber: 3 })).toBe(
			'Sticker 3 of this pack is being redrawn; wait until it is done.'
		);
		expect(consoleSentence({ code: 'BalanceOutOfRange', maxUsd: 10_000_000 })).toBe(
			'Enter the balance in USD, from 0 up to 10,000,000.'
		);
		expect(consoleSentence({ code: 'QueueAlreadyPaused' })).toBe('The queue is already paused.');
		expect(consoleSentence({ code: 'QueueNotPaused' })).toBe('The queue is not paused.');
		expect(consoleSentence({ code: 'OperatorRefused', sentence: 'The last owner cannot be removed.' })).toBe(
			'The last owner cannot be removed.'
		);
	});

	it('words the refusals of events, catalogues, kiosks and preview pictures', () => {
		expect(consoleSentence({ code: 'EventNotFound' })).toBe('That event does not exist any more: reload the page.');
		expect(consoleSentence({ code: 'EventEnded', kept: 'kiosks' })).toBe(
			'This event has ended: its kiosks are kept as they were.'
		);
		expect(consoleSentence({ code: 'EventNotStartable', state: 'live' })).toBe(
			'This event is live: only a draft event can be started.'
		);
		expect(consoleSentence({ code: 'EventNotLive', state: 'draft' })).toBe(
			'This event is draft: only a live event can be ended.'
		);
		expect(
			consoleSentence({ code: 'KioskLiveElsewhere', kiosks: ['Hall', 'Bar'], liveEvent: 'Gala', starting: true })
		).toBe(
			'Kiosk "Hall", "Bar" already works for the live event "Gala": end that event or take the kiosk off this one first.'
		);
		expect(consoleSentence({ code: 'KioskNotFound' })).toBe(
			'One of those kiosks does not exist any more: reload the page.'
		);
		expect(
			consoleSentence({
				code: 'CatalogueInvalid',
				outfitNumber: null,
				problem: 'A catalogue needs at least one outfit.'
			})
		).toBe('A catalogue needs at least one outfit.');
		expect(consoleSentence({ code: 'DraftSavedMeanwhile', savedBy: null })).toMatch(
			/^Another operator saved this catalogue while you were editing: reload/
		);
		expect(consoleSentence({ code: 'CatalogueVersionNotFound', version: 9 })).toBe(
			'This event has no catalogue version 9.'
		);
		const preview = { code: 'PictureRejected', maxBytes: 2 * 1024 * 1024, maxPixels: 4_000_000 } as const;
		expect(consoleSentence({ ...preview, problem: 'damaged' })).toBe(
			'This picture cannot be read (damaged or cut short): save it again and upload the new file.'
		);
	});
});
