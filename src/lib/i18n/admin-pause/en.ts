/** What /pause and /resume answer an admin, in English. The keys are defined here. */
export const en = {
	paused:
		'Paused. The kiosk refuses new guests, guests in the bot get a pause message, the queue waits. Send /resume to continue.',
	alreadyPaused: 'Already paused since {at} ({reason}). Send /resume to continue.',
	resumed: 'Resumed. The kiosk takes guests again and the queue is working.',
	notPaused: 'Nothing to resume: sticker making is running.',
	defaultReason: 'paused by an admin in Telegram'
} as const;
