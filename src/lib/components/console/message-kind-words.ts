/** A recorded bot message's kind in the operator's words (bot_messages.kind); plain text has none. */
export const MESSAGE_KIND_WORDS: Record<string, string> = {
	command: 'command',
	callback: 'pressed a button',
	photo: 'photo',
	sticker: 'sticker',
	document: 'file',
	sticker_set_link: 'pack link',
	edit: 'edited',
	other: 'other'
};
