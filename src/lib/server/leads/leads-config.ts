import type { Config } from '../config/config.ts';
import type { Locale } from '../../i18n/locale.ts';

/**
 * Where lead cards go. LEADS_CHAT_ID when set; with the Telegram emulator (no bot token) its
 * built-in "Sales" group, so the demo shows cards with nothing configured; otherwise null — leads
 * are still stored and wait in the outbox until a chat is configured.
 */
export const EMULATOR_SALES_GROUP_ID = -1001000000001n;

export interface LeadsSettings {
	chatId: bigint | null;
	locale: Locale;
	admins: readonly bigint[];
}

export function readLeadsSettings(config: Pick<Config, 'LEADS_CHAT_ID' | 'LEADS_GROUP_LOCALE' | 'ADMIN_TELEGRAM_IDS' | 'telegram'>): LeadsSettings {
	const chatId = config.LEADS_CHAT_ID ? BigInt(config.LEADS_CHAT_ID) : config.telegram.mode === 'emulator' ? EMULATOR_SALES_GROUP_ID : null;
	return { chatId, locale: config.LEADS_GROUP_LOCALE, admins: config.ADMIN_TELEGRAM_IDS };
}

export function isLeadAdmin(settings: Pick<LeadsSettings, 'admins'>, telegramUserId: number | bigint): boolean {
	return settings.admins.includes(BigInt(telegramUserId));
}
