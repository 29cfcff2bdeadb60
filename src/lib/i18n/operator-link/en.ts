/** What the bot answers to /link, the command a console operator sends to prove a chat is theirs, in English. The keys are defined here. */
export const en = {
	usage:
		'To link this chat to your console account, send /link followed by the code your console profile page shows, for example: /link ABCD-EFGH',
	linked: 'Done: this chat is now linked to the console account “{username}”. Test sends of broadcasts will come here.',
	wrongCode: 'This code is not right. Check it on your console profile page and send /link with the code again.',
	expiredCode: 'This code has expired (a code lasts 10 minutes). Make a new one on your console profile page.',
	locked: 'Too many wrong codes from this chat. Try again in {wait}.',
	seconds: '{n} s',
	minutes: '{n} min'
} as const;
