/** The landing page, in English. The keys are defined here. */
export const en = {
	meta: {
		title: 'AI sticker kiosk for your event — every guest gets their own Telegram sticker pack',
		description:
			'A kiosk at your party or conference: a guest takes a selfie and a minute later has 12 personal Telegram stickers. Book ' +
			'it for your event.'
	},
	languages: 'Language',
	hero: {
		eyebrow: 'AI sticker kiosk for events',
		title: 'Your guests become stickers',
		lead:
			'A guest taps Start, scans a QR code and takes a selfie. About a minute later their own pack of 12 Telegram stickers ' +
			'arrives — drawn by AI in your event’s style.',
		cta: 'Book the kiosk',
		note: 'For conferences, weddings, corporate parties and brand activations in Uzbekistan.'
	},
	features: {
		title: 'What the kiosk does',
		items: [
			{
				title: '12 stickers per guest',
				text:
					'Not a filter on a photo: a whole pack of poses and emotions, drawn from one selfie and added to Telegram with ' +
					'one tap.'
			},
			{
				title: 'Your event’s style',
				text: 'Outfits and captions in your colours — a company hoodie, a wedding suit, a festival costume.'
			},
			{
				title: 'Nothing to install',
				text: 'Guests use the Telegram they already have. The kiosk is a tablet on a stand; we set it up and watch it live.'
			},
			{
				title: 'Photos do not linger',
				text: 'The selfie is deleted as soon as the pack exists. Guests agree to it explicitly before we take a picture.'
			}
		]
	},
	samples: {
		title: 'Stickers guests took home',
		lead: 'Every pack is different — these are drawn in our default style.',
		alt: 'Sample sticker'
	},
	steps: {
		title: 'How it works',
		items: [
			{ title: 'Tap Start', text: 'The kiosk shows a QR code.' },
			{ title: 'Scan with the phone', text: 'Our Telegram bot opens; the guest agrees and picks an outfit.' },
			{ title: 'Smile', text: 'The kiosk camera counts down and takes the selfie.' },
			{ title: 'Get the pack', text: 'The bot sends the sticker pack link — usually within two minutes.' }
		]
	},
	facts: [
		{ value: '12', label: 'stickers in every pack' },
		{ value: '~90 s', label: 'from selfie to pack' },
		{ value: '3', label: 'languages: Uzbek, Russian, English' }
	],
	form: {
		title: 'Request the kiosk for your event',
		lead: 'Leave a contact and we will reply within a working day with availability and a price.',
		name: 'Your name',
		namePlaceholder: 'Aziza',
		telegram: 'Telegram',
		telegramPlaceholder: '@username',
		phone: 'Phone',
		phonePlaceholder: '+998 90 123 45 67',
		contactHint: 'Telegram or phone — at least one, so we can answer.',
		eventDate: 'Event date',
		eventDatePlaceholder: '15 June, or “early autumn”',
		guests: 'Guests',
		guestsPlaceholder: 'about 200',
		comment: 'Comment',
		commentPlaceholder: 'Venue, format, anything we should know',
		submit: 'Send request',
		sending: 'Sending…',
		privacy: 'We use these details only to answer your request and delete them within a year (at once if you ask).'
	},
	result: {
		receivedTitle: 'Request received — thank you!',
		receivedText: 'Our team has your request and will contact you soon.',
		again: 'Send another request',
		invalid: 'Please check the highlighted fields. Your request has not been sent yet.',
		rateLimited:
			'Too many requests from your connection. Your request has not been sent — please try again in an hour or write to us in ' +
			'Telegram.',
		unavailable:
			'We could not save your request because of a problem on our side. It has not been sent — please try again in a minute.',
		network:
			'We could not reach the server, so your request has not been sent. Check your connection and press the button again.'
	},
	errors: {
		nameRequired: 'Please tell us your name.',
		telegramInvalid: 'A Telegram username has 5–32 letters, digits or underscores, like @aziza_events.',
		phoneInvalid: 'This does not look like a phone number. Example: +998 90 123 45 67.',
		contactRequired: 'Leave a phone or a Telegram username so we can answer.',
		tooLong: 'This is too long.',
		badRequestId: 'The form has expired. Reload the page and send it again.'
	},
	footer: 'AI sticker kiosk · Tashkent'
} as const;
