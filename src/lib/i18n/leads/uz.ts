import type { Texts } from '../texts.ts';
import type { en } from './en.ts';

/** What the bot says in the sales group and to lead admins, in Uzbek. */
export const uz = {
	status_new: 'Yangi',
	status_in_work: 'Ishda',
	status_contacted: "Bog'lanildi",
	status_deal: 'Kelishuv',
	status_refused: 'Rad etildi',
	status_spam: 'Spam',
	cardTitle: 'Yangi ariza',
	name: 'Ism',
	telegram: 'Telegram',
	phone: 'Telefon',
	eventDate: 'Tadbir sanasi',
	guests: 'Mehmonlar',
	comment: 'Izoh',
	language: 'Til',
	source: 'Manba',
	received: 'Qabul qilindi',
	statusLine: 'Holat',
	setBy: "o'rnatdi",
	noStatusYet: "holat hali yo'q",
	repeats: 'Takroriy arizalar',
	last: 'oxirgisi',
	erased: "Aloqa ma'lumotlari o'chirildi",
	repeatPing: 'Takroriy ariza:',
	repeatSame: "Ma'lumotlar kartochka bilan bir xil.",
	reminder: '2 soatdan beri holatsiz. Kim oladi?',
	digestTitle: 'Arizalar hisoboti:',
	digestNew: 'Yangi arizalar',
	digestRepeats: 'takroriy',
	digestChanges: "Holat o'zgarishlari",
	digestOpen: 'Hozir ochiq',
	digestWithoutStatus: 'Holatsiz',
	none: "yo'q",
	notAllowed: "Arizalar holatini faqat arizalar administratorlari o'zgartira oladi.",
	statusSet: 'Holat',
	statusAlready: 'Holat allaqachon',
	leadGone: "Bu ariza endi yo'q.",
	forgetUsage: 'Foydalanish: /stickers_forget <ariza raqami>, masalan /stickers_forget 12',
	forgetNotAllowed: "Arizalarni faqat arizalar administratorlari o'chira oladi.",
	forgetNotFound: "#{id} ariza yo'q.",
	forgetDone:
		"#{id} ariza: ism, Telegram, telefon, izoh va IP xeshi o'chirildi. Kundalik zaxira nusxalarda ular nusxalar almashguncha " +
		'({days} kun) saqlanadi.',
	forgetAlready: "#{id} ariza {date} kuni allaqachon o'chirilgan. Zaxira nusxalar {days} kunda almashadi.",
	chatIdOfGroup:
		'Bu guruhning chat ID raqami: {id}. Ariza kartochkalari shu yerga kelishi uchun uni konsolda kiriting: Settings → Sales group chat id.',
	chatIdIsSalesGroup: 'Bu guruhning chat ID raqami: {id}. Bu savdo guruhi: ariza kartochkalari shu yerga keladi.'
} satisfies Texts<typeof en>;
