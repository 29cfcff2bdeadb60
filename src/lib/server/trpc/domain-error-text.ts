import type { Refusal } from '../errors/domain-error.ts';

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
		case 'BroadcastNotFound':
			return `Broadcast #${refusal.broadcastId} does not exist (it may have passed its retention period).`;
		case 'BroadcastStateRefused':
			return `Broadcast #${refusal.broadcastId} is ${refusal.state ?? 'gone'}, so it cannot ${refusal.action === 'send' ? 'be sent' : `be ${refusal.action === 'pause' ? 'paused' : refusal.action === 'resume' ? 'resumed' : 'cancelled'}`} now.`;
		case 'BroadcastEventNotFound':
			return `Event #${refusal.eventId} does not exist: choose the event again.`;
		case 'BroadcastImageMissing':
			return 'The picture is no longer on the server: upload it again.';
		case 'TestSendNeedsTelegramId':
			return 'Enter your own Telegram id first (and write /start to the bot once), so the test message has somewhere to go.';
	}
}
