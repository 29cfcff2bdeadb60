/** Operator alerts sent to admins in Telegram, in English only (see admin-alerts.ts). */
export const en = {
	billing:
		'⛔️ Image provider reports no funds / billing problem. The queue is paused (maintenance, source auto). ' +
		'Resume it in the console after topping up.\n{reason}',
	quotaDay:
		'⏸ Image provider daily quota is exhausted. The queue is paused until {until} (midnight Pacific).\n{reason}',
	fallback:
		'🔀 Image provider {from} cannot serve jobs ({failure}); {to} (IMAGE_PROVIDER_FALLBACK) is drawing them instead. ' +
		'Each job tries {from} first.\n{reason}',
	modelMissing:
		'⛔️ A configured model is unknown to the image provider, so every call with it would fail. The queue is paused ' +
		'(maintenance, source config). Change the setting and restart the worker; the queue resumes by itself once the ' +
		'models are found (checked at start and every hour).\n{reason}',
	modelsFound: '▶️ The configured models are served again; the queue is running (the config pause is lifted).',
	providerAccess:
		'⛔️ The image provider refuses our access (key, permission or location), so every call would fail. The queue is ' +
		'paused (maintenance, source config); no guest loses an attempt. Fix the setting and restart the worker: the queue ' +
		'resumes by itself once the model check passes (at start and every hour), or Resume it in the console.\n{reason}',
	botTokenRefused:
		'⛔️ The bot token saved on the console was refused by Telegram ({reason}). The bot keeps running as @{username} ' +
		'with the token it had. Replace the token on the console Settings page.',
	setsLeftWithOldBot:
		'🗑 A guest asked /forget, but {count} sticker set(s) were made by @{bot}, whose token this worker no longer has, so ' +
		'they are still in Telegram: {names}. Only @{bot} can delete them: with its token from @BotFather, call deleteStickerSet ' +
		'for each name. The guest was told the team will remove them.',
	rpd: '⚠️ {count} image requests today (quota day {day}, Pacific) — past the warning threshold of {threshold}.'
} as const;
