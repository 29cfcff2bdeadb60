import type { Locale } from '../../../lib/i18n/locale.ts';

/** What /pause and /resume answer an admin, in the admin's language. */
const texts = {
	en: {
		paused: 'Paused. The kiosk refuses new guests, guests in the bot get a pause message, the queue waits. Send /resume to continue.',
		alreadyPaused: 'Already paused since {at} ({reason}). Send /resume to continue.',
		resumed: 'Resumed. The kiosk takes guests again and the queue is working.',
		notPaused: 'Nothing to resume: sticker making is running.',
		defaultReason: 'paused by an admin in Telegram'
	},
	ru: {
		paused: 'Пауза включена. Киоск не принимает новых гостей, гости в боте получают сообщение о паузе, очередь ждёт. Отправьте /resume, чтобы продолжить.',
		alreadyPaused: 'Пауза уже включена с {at} ({reason}). Отправьте /resume, чтобы продолжить.',
		resumed: 'Работа возобновлена. Киоск снова принимает гостей, очередь работает.',
		notPaused: 'Нечего возобновлять: создание стикеров и так работает.',
		defaultReason: 'пауза от администратора в Telegram'
	},
	uz: {
		paused: "Pauza yoqildi. Kiosk yangi mehmonlarni qabul qilmaydi, botdagi mehmonlar pauza haqida xabar oladi, navbat kutadi. Davom ettirish uchun /resume yuboring.",
		alreadyPaused: "Pauza {at} dan beri yoqilgan ({reason}). Davom ettirish uchun /resume yuboring.",
		resumed: "Ish qayta boshlandi. Kiosk yana mehmonlarni qabul qiladi, navbat ishlayapti.",
		notPaused: "Qayta boshlash kerak emas: stiker yaratish ishlayapti.",
		defaultReason: "Telegramdagi administrator tomonidan pauza"
	}
} satisfies Record<Locale, Record<string, string>>;

export type AdminPauseTextKey = keyof (typeof texts)['en'];

export function adminPauseText(locale: Locale, key: AdminPauseTextKey, values: Record<string, string> = {}): string {
	return texts[locale][key].replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');
}
