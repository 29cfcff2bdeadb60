import type { Locale } from '../../i18n/locale.ts';
import type { SettingValues } from '../settings/runtime-setting-defs.ts';

/**
 * Where lead cards go and who may press their buttons, from the settings in force
 * (settings/runtime-settings.ts: the console's Settings page, else LEADS_CHAT_ID,
 * LEADS_GROUP_LOCALE and ADMIN_TELEGRAM_IDS). Without a chat id, with the Telegram emulator (no bot
 * token), the emulator's built-in "Sales" group is the default, so the demo shows cards with
 * nothing configured; otherwise null — leads are still stored and wait in the outbox.
 */
export const EMULATOR_SALES_GROUP_ID = -1001000000001n;

export interface LeadsSettings {
	chatId: bigint | null;
	locale: Locale;
	/** Who may press a card's buttons and /stickers_forget: the set list, or the admins when it is empty. */
	admins: readonly bigint[];
}

export type LeadsSettingValues = Pick<
	SettingValues,
	'salesGroupChatId' | 'salesGroupLanguage' | 'leadPressers' | 'adminIds'
>;

export function leadsSettingsFrom(values: LeadsSettingValues): LeadsSettings {
	return {
		chatId: values.salesGroupChatId,
		locale: values.salesGroupLanguage,
		admins: values.leadPressers.length > 0 ? values.leadPressers : values.adminIds
	};
}

export function isLeadAdmin(settings: Pick<LeadsSettings, 'admins'>, telegramUserId: number | bigint): boolean {
	return settings.admins.includes(BigInt(telegramUserId));
}
