/** What /forget says, in English. The keys are defined here. */
export const en = {
	ask:
		'Delete everything we keep about you? Your sticker pack will be removed from Telegram, and your photos, drawings and our ' +
		'records of you will be deleted. This cannot be undone.',
	yes: 'Yes, delete everything',
	no: 'No, keep it',
	done:
		'Done. Sticker sets deleted from Telegram: {sets}. Your photos and drawings and our records of you are deleted too. A copy ' +
		'stays in our daily backups until they rotate out (14 days at most); if a backup is ever restored, your erasure is applied again.',
	doneNoSets:
		'Done. No sticker set of yours was left in Telegram; your photos and drawings and our records of you are deleted. A copy ' +
		'stays in our daily backups until they rotate out (14 days at most); if a backup is ever restored, your erasure is applied again.',
	doneSetsLeft:
		'Done. Sticker sets deleted from Telegram: {sets}. {left} more was made by our earlier bot, which we can no longer use to delete it, ' +
		'so it is still in Telegram for now: our team has been told and will remove it. Your photos and drawings and our records of ' +
		'you are deleted. A copy stays in our daily backups until they rotate out (14 days at most).',
	kept: 'Nothing was deleted.',
	nothing: 'We keep nothing about you: there is nothing to delete.',
	busy: 'Your sticker pack is being made right now. Please send /forget again once it has arrived.',
	failed:
		'We could not remove your sticker pack from Telegram just now, so nothing was deleted yet. Please try /forget again in a ' +
		'few minutes.'
} as const;
