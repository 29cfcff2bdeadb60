import type { Locale } from '../../../lib/i18n/locale.ts';
import type { LeadStatus } from '../../../lib/schemas/lead-status.ts';
import { fillTemplate } from '../../../lib/i18n/fill-template.ts';

/** What the bot says in the sales group and to lead admins (LEADS_GROUP_LOCALE picks the language). */
const texts = {
	en: {
		status: { new: 'New', in_work: 'In work', contacted: 'Contacted', deal: 'Deal', refused: 'Refused', spam: 'Spam' },
		cardTitle: 'New request',
		name: 'Name',
		telegram: 'Telegram',
		phone: 'Phone',
		eventDate: 'Event date',
		guests: 'Guests',
		comment: 'Comment',
		language: 'Language',
		source: 'Source',
		received: 'Received',
		statusLine: 'Status',
		setBy: 'set by',
		noStatusYet: 'no status yet',
		repeats: 'Repeat requests',
		last: 'last',
		erased: 'Contact details erased',
		repeatPing: 'Repeat request for',
		repeatSame: 'Same details as the card.',
		reminder: 'has had no status for over 2 hours. Who takes it?',
		digestTitle: 'Leads digest for',
		digestNew: 'New requests',
		digestRepeats: 'repeats',
		digestChanges: 'Status changes',
		digestOpen: 'Open now',
		digestWithoutStatus: 'Without a status',
		none: 'none',
		notAllowed: 'Only lead admins may change lead statuses.',
		statusSet: 'Status set',
		statusAlready: 'The status already is',
		leadGone: 'This lead no longer exists.',
		forgetUsage: 'Usage: /stickers_forget <lead number>, e.g. /stickers_forget 12',
		forgetNotAllowed: 'Only lead admins may erase leads.',
		forgetNotFound: 'There is no lead #{id}.',
		forgetDone: 'Lead #{id}: name, Telegram, phone, comment and IP hash erased. Daily backups still hold them until they rotate out ({days} days).',
		forgetAlready: 'Lead #{id} was already erased on {date}. Daily backups rotate out after {days} days.'
	},
	ru: {
		status: { new: 'Новая', in_work: 'В работе', contacted: 'Связались', deal: 'Сделка', refused: 'Отказ', spam: 'Спам' },
		cardTitle: 'Новая заявка',
		name: 'Имя',
		telegram: 'Telegram',
		phone: 'Телефон',
		eventDate: 'Дата мероприятия',
		guests: 'Гостей',
		comment: 'Комментарий',
		language: 'Язык',
		source: 'Источник',
		received: 'Получена',
		statusLine: 'Статус',
		setBy: 'поставил(а)',
		noStatusYet: 'статуса ещё нет',
		repeats: 'Повторные заявки',
		last: 'последняя',
		erased: 'Контактные данные удалены',
		repeatPing: 'Повторная заявка по',
		repeatSame: 'Данные совпадают с карточкой.',
		reminder: 'больше 2 часов без статуса. Кто возьмёт?',
		digestTitle: 'Сводка по заявкам за',
		digestNew: 'Новых заявок',
		digestRepeats: 'повторных',
		digestChanges: 'Смены статуса',
		digestOpen: 'Открыто сейчас',
		digestWithoutStatus: 'Без статуса',
		none: 'нет',
		notAllowed: 'Менять статус заявок могут только администраторы заявок.',
		statusSet: 'Статус',
		statusAlready: 'Статус уже',
		leadGone: 'Этой заявки больше нет.',
		forgetUsage: 'Как пользоваться: /stickers_forget <номер заявки>, например /stickers_forget 12',
		forgetNotAllowed: 'Удалять заявки могут только администраторы заявок.',
		forgetNotFound: 'Заявки #{id} нет.',
		forgetDone: 'Заявка #{id}: имя, Telegram, телефон, комментарий и хеш IP удалены. В ежедневных резервных копиях они останутся, пока копии не сменятся ({days} дней).',
		forgetAlready: 'Заявка #{id} уже удалена {date}. Резервные копии сменяются через {days} дней.'
	},
	uz: {
		status: { new: 'Yangi', in_work: 'Ishda', contacted: "Bog'lanildi", deal: 'Kelishuv', refused: 'Rad etildi', spam: 'Spam' },
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
		forgetUsage: "Foydalanish: /stickers_forget <ariza raqami>, masalan /stickers_forget 12",
		forgetNotAllowed: "Arizalarni faqat arizalar administratorlari o'chira oladi.",
		forgetNotFound: "#{id} ariza yo'q.",
		forgetDone: "#{id} ariza: ism, Telegram, telefon, izoh va IP xeshi o'chirildi. Kundalik zaxira nusxalarda ular nusxalar almashguncha ({days} kun) saqlanadi.",
		forgetAlready: "#{id} ariza {date} kuni allaqachon o'chirilgan. Zaxira nusxalar {days} kunda almashadi."
	}
} satisfies Record<Locale, Record<string, unknown>>;

export type LeadsTexts = (typeof texts)['en'];

export function leadsTexts(locale: Locale): LeadsTexts {
	return texts[locale];
}

export function statusLabel(locale: Locale, status: LeadStatus | string): string {
	return (texts[locale].status as Record<string, string>)[status] ?? status;
}

/** Fills {name} placeholders (the shared rule: a missing value stays visible). */
export const fill = fillTemplate;
