/** What the bot says to guests in the kiosk flow, in English. The keys are defined here. */
export const en = {
	lookAtKiosk: 'Your outfit is chosen — look at the kiosk screen, the camera starts there. 📸',
	consentPrompt:
		'Hi, {name}! Before we draw your stickers, one thing about privacy:\n\n' +
		'The kiosk takes one selfie. We use it only to draw your sticker pack and delete it as soon as the pack exists (at the ' +
		'latest after 72 hours). We keep your Telegram name and id to send you the pack. You can stop at any time with /cancel.\n\n' +
		'Do you agree?',
	consentButton: '✅ I agree',
	consentThanks: 'Thank you!',
	chooseOutfit: 'Choose your outfit — tap its number:',
	outfitChosen: 'Great choice: {outfit}! Now look at the kiosk screen — the camera starts there. Smile! 📸',
	outfitUnknown: 'That outfit is not available. Please pick one from the list.',
	alreadyConsented: 'You have already agreed — pick your outfit.',
	tokenUnknown: 'This code is not valid. Please tap Start on the kiosk and scan the new QR code.',
	tokenTaken: 'Another guest is already using this QR code. Please tap Start on the kiosk for your own code.',
	tokenUsed: 'The photo for this session is already taken — your stickers are on their way.',
	tooEarly: 'Please scan the QR code on the kiosk first.',
	closed_qr_timeout: 'This QR code has expired. Tap Start on the kiosk to get a new one.',
	closed_idle_timeout: 'The kiosk session timed out. Tap Start on the kiosk to begin again.',
	closed_cancel: 'This session was cancelled. Tap Start on the kiosk to begin again.',
	closed_staff_reset: 'The kiosk was reset by the staff. Tap Start on the kiosk to begin again.',
	closed_camera_error:
		'The kiosk camera had a problem. Tap Start on the kiosk to try again, or ask the staff for help.',
	closed_kiosk_cancel: 'The session was cancelled at the kiosk. Tap Start on the kiosk to begin again.',
	closed_kiosk_reset: 'The kiosk was restarted. Tap Start on the kiosk to begin again.',
	closed_other: 'This session is closed. Tap Start on the kiosk to begin again.',
	packInProgress: 'Your sticker pack is still being made — the link comes here as soon as it is ready.',
	packReady: 'You already have your sticker pack: {link}',
	packReadyNoLink: 'You already have your sticker pack — look for its link above in this chat.',
	cancelled: 'Cancelled. The kiosk goes back to Start. Come back any time!',
	nothingToCancel: 'There is nothing to cancel right now.',
	generatingQueued: 'Generating your stickers… 🎨 You are #{position} in the queue, about {eta}.',
	generatingNow: 'Generating your stickers… 🎨 About {eta} to go.',
	seconds: '{n} s',
	minutes: '{n} min'
} as const;
