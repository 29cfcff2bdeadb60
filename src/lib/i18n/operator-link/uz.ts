import type { Texts } from '../texts.ts';
import type { en } from './en.ts';

/** What the bot answers to /link, in Uzbek. */
export const uz = {
	usage:
		'Bu chatni konsol hisobingizga bog‘lash uchun /link va konsoldagi profil sahifangizda ko‘rsatilgan kodni yuboring, masalan: /link ABCD-EFGH',
	linked: 'Tayyor: bu chat “{username}” konsol hisobiga bog‘landi. Xabarlarning sinov nusxalari shu yerga keladi.',
	wrongCode: 'Bu kod noto‘g‘ri. Uni konsoldagi profil sahifangizda tekshiring va /link bilan kodni qayta yuboring.',
	expiredCode:
		'Bu kodning muddati tugagan (kod 10 daqiqa amal qiladi). Konsoldagi profil sahifangizda yangisini yarating.',
	locked: 'Bu chatdan juda ko‘p noto‘g‘ri kod yuborildi. {wait} dan keyin qayta urinib ko‘ring.',
	seconds: '{n} soniya',
	minutes: '{n} daqiqa'
} satisfies Texts<typeof en>;
