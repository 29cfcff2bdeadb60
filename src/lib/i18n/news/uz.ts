import type { Texts } from '../texts.ts';
import type { en } from './en.ts';

/** The news opt-in, in Uzbek (see en.ts: new words need a new wording version). */
export const uz = {
	question:
		'Yana bir narsa: {event} yangiliklarini — yangi tadbirlar va takliflarni olishni xohlaysizmi? Faqat rozi bo‘lsangiz yozamiz; /stop istalgan payt to‘xtatadi.',
	questionNoEvent:
		'Yana bir narsa: bizning yangiliklarimizni — yangi tadbirlar va takliflarni olishni xohlaysizmi? Faqat rozi bo‘lsangiz yozamiz; /stop istalgan payt to‘xtatadi.',
	yes: 'Ha, yangiliklarni yuboring',
	no: 'Yo‘q, rahmat',
	answeredYes: 'Tayyor: vaqti-vaqti bilan yangiliklar yuboramiz. Istalgan payt to‘xtatish uchun /stop yuboring.',
	answeredNo: 'Mayli: yangiliklarsiz. Fikringiz o‘zgarsa, /news yuboring.',
	alreadyAnswered: 'Siz allaqachon javob bergansiz. /news yangiliklarni yoqadi, /stop o‘chiradi.',
	newsOn:
		'Tayyor: yangiliklarimizni — yangi tadbirlar va takliflarni olasiz. Istalgan payt to‘xtatish uchun /stop yuboring.',
	newsAlreadyOn: 'Siz yangiliklarimizni allaqachon olyapsiz. To‘xtatish uchun /stop yuboring.',
	newsUnknownGuest: 'Yangiliklarimiz bizda stiker yasagan mehmonlarga yuboriladi. Avval kioskdagi QR kodni skanerlang.'
} satisfies Texts<typeof en>;
