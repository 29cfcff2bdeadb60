import type { Texts } from '../texts.ts';
import type { en } from './en.ts';

/** What /pause and /resume answer an admin, in Uzbek. */
export const uz = {
	paused:
		'Pauza yoqildi. Kiosk yangi mehmonlarni qabul qilmaydi, botdagi mehmonlar pauza haqida xabar oladi, navbat kutadi. Davom ' +
		'ettirish uchun /resume yuboring.',
	alreadyPaused: 'Pauza {at} dan beri yoqilgan ({reason}). Davom ettirish uchun /resume yuboring.',
	resumed: 'Ish qayta boshlandi. Kiosk yana mehmonlarni qabul qiladi, navbat ishlayapti.',
	notPaused: 'Qayta boshlash kerak emas: stiker yaratish ishlayapti.',
	defaultReason: 'Telegramdagi administrator tomonidan pauza'
} satisfies Texts<typeof en>;
