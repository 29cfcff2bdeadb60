import type { Texts } from '../texts.ts';
import type { en } from './en.ts';

/** What the bot says outside the guest flow (a bare /start, the pause, its error boundary), in Uzbek. */
export const uz = {
	welcomeWithoutToken:
		"Salom! Men selfidan stikerlar to'plamini yarataman. Boshlash uchun tadbirdagi stiker-kioskda «Start» tugmasini bosing va " +
		'ekrandagi QR-kodni skanerlang.',
	paused:
		"Stiker yaratish biroz to'xtatildi. Bir necha daqiqadan so'ng qayta urinib ko'ring — qaytganimizni kiosk ko'rsatadi.",
	pausedWithNote: "Stiker yaratish biroz to'xtatildi. Jamoadan xabar: «{note}». Qaytganimizni kiosk ko'rsatadi.",
	somethingWentWrong: "Kechirasiz, bizda nimadir xato ketdi. Bir daqiqadan so'ng qayta urinib ko'ring."
} satisfies Texts<typeof en>;
