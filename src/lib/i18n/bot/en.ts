/** What the bot says outside the guest flow (bare /start, the pause, errors), in English. The keys are defined here. */
export const en = {
	welcomeWithoutToken:
		'Hi! I make sticker packs from a selfie. To start, tap Start on the sticker kiosk at the event and scan the QR code it shows.',
	paused:
		'Sticker making is paused for a moment. Please try again in a few minutes — the kiosk will show when we are back.',
	pausedWithNote:
		'Sticker making is paused for a moment. From the team: “{note}”. The kiosk will show when we are back.',
	somethingWentWrong: 'Sorry, something went wrong on our side. Please try again in a minute.'
} as const;
