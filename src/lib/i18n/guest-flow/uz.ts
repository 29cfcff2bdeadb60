import type { Texts } from '../texts.ts';
import type { en } from './en.ts';

/** What the bot says to guests in the kiosk flow, in Uzbek. */
export const uz = {
	lookAtKiosk: "Libos tanlandi — kiosk ekraniga qarang, kamera o'sha yerda yoqiladi. 📸",
	consentPrompt:
		'Salom, {name}! Stikerlaringizni chizishdan oldin maxfiylik haqida:\n\n' +
		"Kiosk bitta selfi oladi. Biz undan faqat stikerlar to'plamingiz uchun foydalanamiz va to'plam tayyor bo'lishi bilan " +
		"o'chiramiz (eng kechi 72 soatdan keyin). To'plamni yuborish uchun Telegram ismingiz va id raqamingizni saqlaymiz. Istalgan " +
		"vaqtda /cancel bilan to'xtatishingiz mumkin.\n\nRozimisiz?",
	consentButton: '✅ Roziman',
	consentThanks: 'Rahmat!',
	chooseOutfit: 'Libosingizni tanlang — raqamini bosing:',
	outfitChosen: "Ajoyib tanlov: {outfit}! Endi kiosk ekraniga qarang — kamera o'sha yerda yoqiladi. Jilmaying! 📸",
	outfitUnknown: "Bunday libos yo'q. Iltimos, ro'yxatdan tanlang.",
	alreadyConsented: 'Siz allaqachon rozilik bergansiz — libos tanlang.',
	tokenUnknown: 'Bu kod yaroqsiz. Kioskda «Start» tugmasini bosing va yangi QR-kodni skanerlang.',
	tokenTaken: "Bu QR-koddan boshqa mehmon foydalanmoqda. O'z kodingizni olish uchun kioskda «Start» tugmasini bosing.",
	tokenUsed: "Bu seans uchun surat allaqachon olingan — stikerlaringiz yo'lda.",
	tooEarly: 'Avval kioskdagi QR-kodni skanerlang.',
	closed_qr_timeout: 'QR-kodning muddati tugadi. Yangisini olish uchun kioskda «Start» tugmasini bosing.',
	closed_idle_timeout: 'Kioskdagi seans vaqti tugadi. Qaytadan boshlash uchun kioskda «Start» tugmasini bosing.',
	closed_cancel: 'Bu seans bekor qilindi. Qaytadan boshlash uchun kioskda «Start» tugmasini bosing.',
	closed_staff_reset: 'Kioskni xodimlar qayta ishga tushirdi. Qaytadan boshlash uchun «Start» tugmasini bosing.',
	closed_camera_error:
		'Kiosk kamerasida muammo yuz berdi. «Start» tugmasini yana bosing yoki xodimlarga murojaat qiling.',
	closed_kiosk_cancel: 'Sessiya kioskda bekor qilindi. Qaytadan boshlash uchun kioskda «Start» tugmasini bosing.',
	closed_kiosk_reset: 'Kiosk qayta ishga tushirildi. Qaytadan boshlash uchun «Start» tugmasini bosing.',
	closed_other: 'Bu seans yopilgan. Qaytadan boshlash uchun kioskda «Start» tugmasini bosing.',
	packInProgress: "Stikerlar to'plamingiz hali tayyorlanmoqda — tayyor bo'lishi bilan havola shu yerga keladi.",
	packReady: "Sizda allaqachon stikerlar to'plami bor: {link}",
	packReadyNoLink: "Sizda allaqachon stikerlar to'plami bor — havolasi shu chatda yuqorida.",
	cancelled: 'Bekor qilindi. Kiosk boshiga qaytadi. Yana keling!',
	nothingToCancel: "Hozir bekor qiladigan narsa yo'q.",
	generatingQueued: "Stikerlaringizni chizmoqdamiz… 🎨 Navbatda {position}-o'rindasiz, taxminan {eta}.",
	generatingNow: 'Stikerlaringizni chizmoqdamiz… 🎨 Taxminan {eta} qoldi.',
	seconds: '{n} soniya',
	minutes: '{n} daqiqa'
} satisfies Texts<typeof en>;
