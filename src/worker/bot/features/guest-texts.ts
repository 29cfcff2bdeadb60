import type { Locale } from '../../../lib/i18n/locale.ts';
import type { ClosedReason } from '../../../lib/schemas/kiosk.ts';
import { fillTemplate } from '../../../lib/i18n/fill-template.ts';

/** What the bot says to guests in the kiosk flow, per language. `{name}` marks are filled in. */
const texts = {
	en: {
		lookAtKiosk: 'Your outfit is chosen — look at the kiosk screen, the camera starts there. 📸',
		consentPrompt:
			'Hi, {name}! Before we draw your stickers, one thing about privacy:\n\nThe kiosk takes one selfie. We use it only to draw your sticker pack and delete it as soon as the pack exists (at the latest after 72 hours). We keep your Telegram name and id to send you the pack. You can stop at any time with /cancel.\n\nDo you agree?',
		consentButton: '✅ I agree',
		consentThanks: 'Thank you!',
		chooseOutfit: 'Choose your outfit — tap its number:',
		outfitChosen: 'Great choice: {outfit}! Now look at the kiosk screen — the camera starts there. Smile! 📸',
		outfitUnknown: 'That outfit is not available. Please pick one from the list.',
		alreadyConsented: 'You have already agreed — pick your outfit.',
		tokenUnknown: 'This code is not valid. Please tap Start on the kiosk and scan the new QR code.',
		tokenTaken: 'Another guest is already using this QR code. Please tap Start on the kiosk for your own code.',
		tokenUsed: 'The photo for this session is already taken — your stickers are on their way.',
		tooEarly: 'Please scan the QR code on the kiosk first.',
		closed_qr_timeout: 'This QR code has expired. Tap Start on the kiosk to get a new one.',
		closed_idle_timeout: 'The kiosk session timed out. Tap Start on the kiosk to begin again.',
		closed_cancel: 'This session was cancelled. Tap Start on the kiosk to begin again.',
		closed_staff_reset: 'The kiosk was reset by the staff. Tap Start on the kiosk to begin again.',
		closed_camera_error: 'The kiosk camera had a problem. Tap Start on the kiosk to try again, or ask the staff for help.',
		closed_kiosk_reset: 'The kiosk was restarted. Tap Start on the kiosk to begin again.',
		closed_other: 'This session is closed. Tap Start on the kiosk to begin again.',
		packInProgress: 'Your sticker pack is still being made — the link comes here as soon as it is ready.',
		packReady: 'You already have your sticker pack: {link}',
		packReadyNoLink: 'You already have your sticker pack — look for its link above in this chat.',
		cancelled: 'Cancelled. The kiosk goes back to Start. Come back any time!',
		nothingToCancel: 'There is nothing to cancel right now.',
		generatingQueued: 'Generating your stickers… 🎨 You are #{position} in the queue, about {eta}.',
		generatingNow: 'Generating your stickers… 🎨 About {eta} to go.',
		seconds: '{n} s',
		minutes: '{n} min'
	},
	ru: {
		lookAtKiosk: 'Образ выбран — посмотрите на экран киоска, там включится камера. 📸',
		consentPrompt:
			'Привет, {name}! Прежде чем мы нарисуем ваши стикеры — пара слов о приватности:\n\nКиоск делает одно селфи. Мы используем его только для вашего стикерпака и удаляем, как только пак готов (самое позднее через 72 часа). Мы храним ваше имя и id в Telegram, чтобы прислать пак. Остановиться можно в любой момент командой /cancel.\n\nВы согласны?',
		consentButton: '✅ Согласен(на)',
		consentThanks: 'Спасибо!',
		chooseOutfit: 'Выберите образ — нажмите его номер:',
		outfitChosen: 'Отличный выбор: {outfit}! Теперь посмотрите на экран киоска — там включится камера. Улыбнитесь! 📸',
		outfitUnknown: 'Такого образа нет. Выберите, пожалуйста, из списка.',
		alreadyConsented: 'Вы уже согласились — выберите образ.',
		tokenUnknown: 'Этот код недействителен. Нажмите «Старт» на киоске и отсканируйте новый QR-код.',
		tokenTaken: 'Этот QR-код уже использует другой гость. Нажмите «Старт» на киоске, чтобы получить свой код.',
		tokenUsed: 'Фото для этой сессии уже сделано — ваши стикеры в пути.',
		tooEarly: 'Сначала отсканируйте QR-код на киоске.',
		closed_qr_timeout: 'Срок действия QR-кода истёк. Нажмите «Старт» на киоске, чтобы получить новый.',
		closed_idle_timeout: 'Время сессии на киоске истекло. Нажмите «Старт» на киоске, чтобы начать заново.',
		closed_cancel: 'Эта сессия отменена. Нажмите «Старт» на киоске, чтобы начать заново.',
		closed_staff_reset: 'Персонал перезапустил киоск. Нажмите «Старт» на киоске, чтобы начать заново.',
		closed_camera_error: 'У камеры киоска возникла проблема. Нажмите «Старт» ещё раз или обратитесь к персоналу.',
		closed_kiosk_reset: 'Киоск был перезапущен. Нажмите «Старт» на киоске, чтобы начать заново.',
		closed_other: 'Эта сессия закрыта. Нажмите «Старт» на киоске, чтобы начать заново.',
		packInProgress: 'Ваш стикерпак ещё создаётся — ссылка придёт сюда, как только он будет готов.',
		packReady: 'У вас уже есть стикерпак: {link}',
		packReadyNoLink: 'У вас уже есть стикерпак — ссылка на него выше в этом чате.',
		cancelled: 'Отменено. Киоск вернётся к началу. Приходите ещё!',
		nothingToCancel: 'Сейчас нечего отменять.',
		generatingQueued: 'Рисуем ваши стикеры… 🎨 Вы №{position} в очереди, примерно {eta}.',
		generatingNow: 'Рисуем ваши стикеры… 🎨 Осталось примерно {eta}.',
		seconds: '{n} с',
		minutes: '{n} мин'
	},
	uz: {
		lookAtKiosk: "Libos tanlandi — kiosk ekraniga qarang, kamera o'sha yerda yoqiladi. 📸",
		consentPrompt:
			"Salom, {name}! Stikerlaringizni chizishdan oldin maxfiylik haqida:\n\nKiosk bitta selfi oladi. Biz undan faqat stikerlar to'plamingiz uchun foydalanamiz va to'plam tayyor bo'lishi bilan o'chiramiz (eng kechi 72 soatdan keyin). To'plamni yuborish uchun Telegram ismingiz va id raqamingizni saqlaymiz. Istalgan vaqtda /cancel bilan to'xtatishingiz mumkin.\n\nRozimisiz?",
		consentButton: '✅ Roziman',
		consentThanks: 'Rahmat!',
		chooseOutfit: 'Libosingizni tanlang — raqamini bosing:',
		outfitChosen: "Ajoyib tanlov: {outfit}! Endi kiosk ekraniga qarang — kamera o'sha yerda yoqiladi. Jilmaying! 📸",
		outfitUnknown: "Bunday libos yo'q. Iltimos, ro'yxatdan tanlang.",
		alreadyConsented: 'Siz allaqachon rozilik bergansiz — libos tanlang.',
		tokenUnknown: "Bu kod yaroqsiz. Kioskda «Start» tugmasini bosing va yangi QR-kodni skanerlang.",
		tokenTaken: "Bu QR-koddan boshqa mehmon foydalanmoqda. O'z kodingizni olish uchun kioskda «Start» tugmasini bosing.",
		tokenUsed: "Bu seans uchun surat allaqachon olingan — stikerlaringiz yo'lda.",
		tooEarly: 'Avval kioskdagi QR-kodni skanerlang.',
		closed_qr_timeout: "QR-kodning muddati tugadi. Yangisini olish uchun kioskda «Start» tugmasini bosing.",
		closed_idle_timeout: "Kioskdagi seans vaqti tugadi. Qaytadan boshlash uchun kioskda «Start» tugmasini bosing.",
		closed_cancel: "Bu seans bekor qilindi. Qaytadan boshlash uchun kioskda «Start» tugmasini bosing.",
		closed_staff_reset: "Kioskni xodimlar qayta ishga tushirdi. Qaytadan boshlash uchun «Start» tugmasini bosing.",
		closed_camera_error: "Kiosk kamerasida muammo yuz berdi. «Start» tugmasini yana bosing yoki xodimlarga murojaat qiling.",
		closed_kiosk_reset: "Kiosk qayta ishga tushirildi. Qaytadan boshlash uchun «Start» tugmasini bosing.",
		closed_other: "Bu seans yopilgan. Qaytadan boshlash uchun kioskda «Start» tugmasini bosing.",
		packInProgress: "Stikerlar to'plamingiz hali tayyorlanmoqda — tayyor bo'lishi bilan havola shu yerga keladi.",
		packReady: "Sizda allaqachon stikerlar to'plami bor: {link}",
		packReadyNoLink: "Sizda allaqachon stikerlar to'plami bor — havolasi shu chatda yuqorida.",
		cancelled: 'Bekor qilindi. Kiosk boshiga qaytadi. Yana keling!',
		nothingToCancel: "Hozir bekor qiladigan narsa yo'q.",
		generatingQueued: "Stikerlaringizni chizmoqdamiz… 🎨 Navbatda {position}-o'rindasiz, taxminan {eta}.",
		generatingNow: 'Stikerlaringizni chizmoqdamiz… 🎨 Taxminan {eta} qoldi.',
		seconds: '{n} soniya',
		minutes: '{n} daqiqa'
	}
} satisfies Record<Locale, Record<string, string>>;

export type GuestTextKey = keyof (typeof texts)['en'];

export function guestText(locale: Locale, key: GuestTextKey, vars: Record<string, string | number> = {}): string {
	const template: string = texts[locale]?.[key] ?? texts.en[key];
	return fillTemplate(template, vars);
}

export function closedText(locale: Locale, reason: ClosedReason | null): string {
	return guestText(locale, reason ? (`closed_${reason}` as GuestTextKey) : 'closed_other');
}

/** "about 90 s" / "about 3 min" in the guest's language. */
export function durationText(locale: Locale, seconds: number): string {
	return seconds < 120 ? guestText(locale, 'seconds', { n: Math.max(5, Math.round(seconds)) }) : guestText(locale, 'minutes', { n: Math.round(seconds / 60) });
}
