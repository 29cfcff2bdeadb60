/** What the worker tells a guest about their job, in English. The keys are defined here. */
export const en = {
	stage_passport: '🎨 Looking at your photo…',
	stage_anchor: '✏️ Sketching your character…',
	stage_sheet: '🖌 Drawing your 12 stickers…',
	stage_cut: '✂️ Cutting out the stickers…',
	stage_heads: '🙂 Putting your face on every sticker…',
	stage_qa: '🔍 Checking every sticker…',
	stage_uploading: '📦 Uploading your pack to Telegram…',
	stage_done: '✅ Your stickers are ready!',
	link_placeholder: '📦 Almost there — packing your stickers…',
	link: '🎉 Your sticker pack is ready! Tap to add it:\n{link}',
	delay: '⏳ This is taking a little longer than usual — your stickers are still on their way. Thank you for waiting!',
	failed:
		'😔 Sorry, we could not draw your stickers this time. Please ask our staff at the kiosk — they can try again for you.',
	// A provider's refusal is said as our failure, never as the guest's photo or person.
	refused:
		'😔 Sorry, our drawing service could not make stickers from this photo. Please ask our staff at the kiosk — a new photo usually works.',
	deadline:
		'😔 Sorry, your stickers took too long and we had to stop. Please ask our staff at the kiosk — they can start it again.',
	no_face:
		'😔 Sorry, we could not see a face clearly in this photo, so we could not draw it. Please ask our staff at the kiosk — ' +
		'a new photo will do it.',
	paused:
		'⏸ Your pack is delayed: drawing is paused for a while. It will come here after the pause — there is nothing you need to do.',
	pausedWithNote:
		'⏸ Your pack is delayed: drawing is paused for a while. From the team: “{note}”. It will come here after the pause — there is nothing you need to do.',
	pack_title: 'My party stickers'
} as const;
