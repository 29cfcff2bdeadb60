import type { Locale } from '../../lib/i18n/locale.ts';

/** Everything the bot says, per language. Keys name the moment, not the wording. */
const texts = {
	en: {
		welcomeWithoutToken:
			'Hi! I make sticker packs from a selfie. To start, tap Start on the sticker kiosk at the event and scan the QR code it shows.',
		paused: 'Sticker making is paused for a moment. Please try again in a few minutes — the kiosk will show when we are back.',
		somethingWentWrong: 'Sorry, something went wrong on our side. Please try again in a minute.'
	},
	ru: {
		welcomeWithoutToken:
			'Привет! Я делаю стикерпаки из селфи. Чтобы начать, нажмите «Старт» на стикер-киоске и отсканируйте QR-код на экране.',
		paused: 'Создание стикеров ненадолго приостановлено. Попробуйте через несколько минут — киоск покажет, когда мы вернёмся.',
		somethingWentWrong: 'Извините, у нас что-то пошло не так. Попробуйте ещё раз через минуту.'
	},
	uz: {
		welcomeWithoutToken:
			"Salom! Men selfidan stikerlar to'plamini yarataman. Boshlash uchun tadbirdagi stiker-kioskda «Start» tugmasini bosing va ekrandagi QR-kodni skanerlang.",
		paused: "Stiker yaratish biroz to'xtatildi. Bir necha daqiqadan so'ng qayta urinib ko'ring — qaytganimizni kiosk ko'rsatadi.",
		somethingWentWrong: "Kechirasiz, bizda nimadir xato ketdi. Bir daqiqadan so'ng qayta urinib ko'ring."
	}
} satisfies Record<Locale, Record<string, string>>;

export type TextKey = keyof (typeof texts)['en'];

export function t(locale: Locale, key: TextKey): string {
	return texts[locale][key];
}
