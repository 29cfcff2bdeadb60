import type { EventRefusal, KioskRefusal, Refusal } from '../errors/domain-error.ts';

/** The console's sentence for each refusal of the domain (operators read English). */
export function consoleSentence(refusal: Refusal): string {
	switch (refusal.code) {
		case 'GuestNotFound':
			return `There is no guest ${refusal.telegramUserId}${refusal.perhapsReset ? ' (already reset?)' : ''}.`;
		case 'GuestPackInProgress':
			return 'This guest’s pack is being made right now. Reset once the job is done or failed.';
		case 'ResetBackupFailed':
			return 'The database backup before the reset failed, so nothing was deleted. Check disk space and try again.';
		case 'JobNotFound':
			return `Job ${refusal.jobId} does not exist (the guest may have been reset).`;
		case 'JobNotRetryable':
			return `Job ${refusal.jobId} is ${refusal.status ?? 'gone'}, not failed, so there is nothing to retry.`;
		case 'StickerOutOfRange':
			return `There is no sticker ${refusal.stickerNumber}: a pack has stickers 1 to ${refusal.stickers}.`;
		case 'PackNotDelivered':
			return `Job ${refusal.jobId} is ${refusal.status}: only a delivered pack can have a sticker redrawn.`;
		case 'RedrawInProgress':
			return `Sticker ${refusal.stickerNumber} of this pack is being redrawn; wait until it is done.`;
		case 'BalanceOutOfRange':
			return `Enter the balance in USD, from 0 up to ${refusal.maxUsd.toLocaleString('en-US')}.`;
		case 'QueueAlreadyPaused':
			return 'The queue is already paused.';
		case 'QueueNotPaused':
			return 'The queue is not paused.';
		case 'OperatorRefused':
			return refusal.sentence;
		case 'SettingRefused':
			return `${refusal.label}: ${refusal.problem}`;
		case 'BroadcastNotFound':
			return `Broadcast #${refusal.broadcastId} does not exist (it may have passed its retention period).`;
		case 'BroadcastStateRefused':
			return `Broadcast #${refusal.broadcastId} is ${refusal.state ?? 'gone'}, so it cannot ${refusal.action === 'send' ? 'be sent' : `be ${refusal.action === 'pause' ? 'paused' : refusal.action === 'resume' ? 'resumed' : 'cancelled'}`} now.`;
		case 'BroadcastEventNotFound':
			return `Event #${refusal.eventId} does not exist: choose the event again.`;
		case 'BroadcastImageMissing':
			return 'The picture is no longer on the server: upload it again.';
		case 'TestSendNeedsProvenChat':
			return `${refusal.unproven ? 'Your Telegram id was typed in, not proven, so tests do not go to it. ' : ''}Link your own Telegram chat on your profile page (/console/profile) first: a test goes only to a chat that has proven it is yours.`;
		case 'TestSendChatRefuses':
			return refusal.standing === 'opted_out'
				? `Your Telegram chat ${refusal.telegramUserId} has asked for no more messages (/stop or the “No more messages” button), so the bot sends it nothing, tests included.`
				: `Your Telegram chat ${refusal.telegramUserId} has blocked the bot, so nothing can reach it: unblock the bot in Telegram and write to it once, then try again.`;
		case 'TestSendRateLimited':
			return `You have sent ${refusal.limit} tests in the last ${refusal.per}: try again in ${waitText(refusal.retryAfterSeconds)}.`;
		case 'PictureRejected':
			if (refusal.problem === 'too_big')
				return `This picture is larger than ${refusal.maxBytes / (1024 * 1024)} MB: make it smaller and upload it again.`;
			if (refusal.problem === 'too_many_pixels')
				return `This picture has more than ${refusal.maxPixels / 1_000_000} megapixels: scale it down (1024×1024 is plenty) and upload it again.`;
			return PICTURE_PROBLEM[refusal.problem];
		case 'KioskNameTaken':
		case 'KioskMissing':
		case 'KioskRevoked':
			return kioskSentence(refusal);
		default:
			return eventSentence(refusal);
	}
}

/** The Kiosks page. */
function kioskSentence(refusal: KioskRefusal): string {
	switch (refusal.code) {
		case 'KioskNameTaken':
			return `There is already a kiosk named "${refusal.name}"${refusal.revoked ? ' (revoked; rename it to free the name)' : ''}: choose another name.`;
		case 'KioskMissing':
			return `Kiosk #${refusal.kioskId} does not exist: reload the page.`;
		case 'KioskRevoked':
			return `Kiosk "${refusal.name}" is revoked: its key no longer works. Add a new kiosk to pair a tablet again.`;
	}
}

/** "40 seconds", "12 minutes", "3 hours" for a refusal's wait. */
function waitText(seconds: number): string {
	if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
	if (seconds < 90 * 60) return `${Math.ceil(seconds / 60)} minutes`;
	return `${Math.ceil(seconds / 3600)} hours`;
}

const LANGUAGE_NAME: Record<'ru' | 'uz' | 'en', string> = { ru: 'Russian', uz: 'Uzbek', en: 'English' };
const KEPT: Record<'settings' | 'catalogue' | 'kiosks', string> = {
	settings: 'its settings are kept as they were',
	catalogue: 'its catalogue is kept as it was',
	kiosks: 'its kiosks are kept as they were'
};
const PICTURE_PROBLEM: Record<'not_an_image' | 'damaged', string> = {
	not_an_image: 'This file is not a picture: upload a JPEG, PNG or WebP image.',
	damaged: 'This picture cannot be read (damaged or cut short): save it again and upload the new file.'
};

/** Events, their catalogues and kiosks. */
function eventSentence(refusal: EventRefusal): string {
	switch (refusal.code) {
		case 'EventNotFound':
			return 'That event does not exist any more: reload the page.';
		case 'EventEnded':
			return `This event has ended: ${KEPT[refusal.kept]}.`;
		case 'EventNotStartable':
			return `This event is ${refusal.state}: only a draft event can be started.`;
		case 'EventNotLive':
			return `This event is ${refusal.state}: only a live event can be ended.`;
		case 'EventCatalogueUnpublished':
			return 'Publish the outfit catalogue before starting the event: guests would have nothing to choose.';
		case 'KioskLiveElsewhere':
			return `Kiosk ${refusal.kiosks.map((name) => `"${name}"`).join(', ')} already works for the live event "${refusal.liveEvent}": end that event or take the kiosk off ${refusal.starting ? 'this one' : 'it'} first.`;
		case 'KioskNotFound':
			return 'One of those kiosks does not exist any more: reload the page.';
		case 'CatalogueInvalid':
			return (refusal.outfitNumber === null ? '' : `Outfit ${refusal.outfitNumber}: `) + refusal.problem;
		case 'CaptionTooLong':
			return (
				`${LANGUAGE_NAME[refusal.language]} caption ${refusal.captionNumber} ("${refusal.caption}") does not fit on a sticker even in two lines at the smallest type: ` +
				`about ${refusal.fitsCharacters} characters like these fit (it has ${refusal.caption.length}). Shorten it.`
			);
		case 'DraftSavedMeanwhile':
			return `${refusal.savedBy || 'Another operator'} saved this catalogue while you were editing: reload to see their changes, then make yours again.`;
		case 'DraftChangedBeforePublish':
			return 'The draft changed since you opened it: reload, check it, then publish.';
		case 'CatalogueVersionNotFound':
			return `This event has no catalogue version ${refusal.version}.`;
	}
}
