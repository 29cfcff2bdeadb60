/** What guests read around a broadcast (the operator writes the broadcast itself), in English. The keys are defined here. */
export const en = {
	optOutButton: '🔕 No more messages',
	optedOut: 'Done: we will not send you any more messages like this. Your stickers stay yours.',
	alreadyOptedOut: 'You have already asked for no more messages: we will not send you any.'
} as const;
