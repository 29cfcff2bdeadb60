/**
 * The news opt-in, in English: the one question after a pack (Yes / No, nothing chosen for the
 * guest), its answers, and /news. The keys are defined here. Changing the words of `question*`,
 * `yes` or `no` needs a new NEWS_QUESTION_WORDING_VERSION (news.ts); of `newsOn`, a new
 * NEWS_COMMAND_WORDING_VERSION — the opt-ins recorded so far name the words the guest saw.
 */
export const en = {
	question:
		'One more thing: would you like news from {event} — new events and offers? We write only if you say yes; /stop ends it at any time.',
	questionNoEvent:
		'One more thing: would you like news from us — new events and offers? We write only if you say yes; /stop ends it at any time.',
	yes: 'Yes, send me news',
	no: 'No, thanks',
	answeredYes: 'Done: we will send you news now and then. Send /stop to end it at any time.',
	answeredNo: 'All right: no news. If you change your mind, send /news.',
	alreadyAnswered: 'You have answered this already. /news turns news on, /stop turns them off.',
	newsOn: 'Done: you will get our news — new events and offers. Send /stop to end it at any time.',
	newsAlreadyOn: 'You already get our news. Send /stop to end it.',
	newsUnknownGuest: 'Our news go to guests who made stickers with us. Scan the QR code at the kiosk first.'
} as const;
