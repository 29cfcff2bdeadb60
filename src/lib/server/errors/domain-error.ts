import type { JobStatus } from '../../schemas/job-status.ts';

/**
 * A step the domain refuses for a reason a person can understand or fix: the guest does not exist,
 * the job is not failed, the queue is already paused. Domain code throws the facts, never a
 * sentence; each surface words them for its readers (the console: trpc/domain-error-text.ts).
 * Anything else thrown is a bug or an outage and is answered as one.
 */
export type Refusal =
	| { code: 'GuestNotFound'; telegramUserId: bigint; perhapsReset: boolean }
	| { code: 'GuestPackInProgress'; telegramUserId: bigint }
	| { code: 'ResetBackupFailed' }
	| { code: 'JobNotFound'; jobId: number }
	| { code: 'JobNotRetryable'; jobId: number; status: JobStatus | null }
	| { code: 'StickerOutOfRange'; stickerNumber: number; stickers: number }
	| { code: 'PackNotDelivered'; jobId: number; status: string }
	| { code: 'RedrawInProgress'; stickerNumber: number }
	| { code: 'BalanceOutOfRange'; maxUsd: number }
	| { code: 'QueueAlreadyPaused' }
	| { code: 'QueueNotPaused' }
	/** Operator accounts: the problem is worded where it is found, because the setup page shows it too. */
	| { code: 'OperatorRefused'; sentence: string }
	| { code: 'BroadcastNotFound'; broadcastId: number }
	| {
			code: 'BroadcastStateRefused';
			broadcastId: number;
			state: string | null;
			action: 'send' | 'pause' | 'resume' | 'cancel';
	  }
	| { code: 'BroadcastEventNotFound'; eventId: number }
	| { code: 'BroadcastImageMissing' }
	/** unproven: the operator has an id typed in before chats had to prove themselves. */
	| { code: 'TestSendNeedsProvenChat'; unproven: boolean }
	| { code: 'TestSendChatRefuses'; telegramUserId: bigint; standing: 'opted_out' | 'blocked' }
	| { code: 'TestSendRateLimited'; per: 'minute' | 'day'; limit: number; retryAfterSeconds: number }
	/** An uploaded picture (an outfit's preview, a broadcast's picture): its route's limits, for the sentence. */
	| { code: 'PictureRejected'; problem: PictureProblem; maxBytes: number; maxPixels: number }
	/** A runtime setting's value its rule refuses; `problem` is the rule's sentence (runtime-setting-defs.ts). */
	| { code: 'SettingRefused'; label: string; problem: string }
	| EventRefusal
	| KioskRefusal;

/** The Kiosks page: adding, renaming, revoking and resetting kiosks. */
export type KioskRefusal =
	| { code: 'KioskNameTaken'; name: string; revoked: boolean }
	| { code: 'KioskMissing'; kioskId: number }
	| { code: 'KioskRevoked'; name: string };

/** Events, their outfit catalogues and kiosks. */
export type EventRefusal =
	| { code: 'EventNotFound' }
	| { code: 'EventEnded'; kept: 'settings' | 'catalogue' | 'kiosks' }
	| { code: 'EventNotStartable'; state: string }
	| { code: 'EventNotLive'; state: string }
	| { code: 'EventCatalogueUnpublished' }
	/** starting: refused when starting this event (its kiosk must come off it); else when assigning kiosks to it. */
	| { code: 'KioskLiveElsewhere'; kiosks: string[]; liveEvent: string; starting: boolean }
	| { code: 'KioskNotFound' }
	/** The catalogue's first problem: `problem` is the shared outfit schema's sentence (the browser shows the same). */
	| { code: 'CatalogueInvalid'; outfitNumber: number | null; problem: string }
	| { code: 'DraftSavedMeanwhile'; savedBy: string | null }
	| { code: 'DraftChangedBeforePublish' }
	| { code: 'CatalogueVersionNotFound'; version: number }
	/** A caption too wide for a sticker even in two lines at the smallest type; `fitsCharacters`: about how many like these fit. */
	| {
			code: 'CaptionTooLong';
			language: 'ru' | 'uz' | 'en';
			captionNumber: number;
			caption: string;
			fitsCharacters: number;
	  };

export type PictureProblem = 'not_an_image' | 'too_big' | 'too_many_pixels' | 'damaged';

export type RefusalCode = Refusal['code'];

export class DomainError extends Error {
	constructor(readonly refusal: Refusal) {
		super(refusal.code);
		this.name = 'DomainError';
	}
}
