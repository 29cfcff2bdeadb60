import type { Texts } from '../texts.ts';
import type { en } from './en.ts';

/** What the bot says in the sales group and to lead admins, in Russian. */
export const ru = {
	status_new: 'Новая',
	status_in_work: 'В работе',
	status_contacted: 'Связались',
	status_deal: 'Сделка',
	status_refused: 'Отказ',
	status_spam: 'Спам',
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
	forgetDone:
		'Заявка #{id}: имя, Telegram, телефон, комментарий и хеш IP удалены. В ежедневных резервных копиях они останутся, пока ' +
		'копии не сменятся ({days} дней).',
	forgetAlready: 'Заявка #{id} уже удалена {date}. Резервные копии сменяются через {days} дней.',
	chatIdOfGroup:
		'ID этой группы: {id}. Чтобы карточки заявок приходили сюда, вставьте его в консоли: Settings → Sales group chat id.',
	chatIdIsSalesGroup: 'ID этой группы: {id}. Это группа продаж: карточки заявок приходят сюда.'
} satisfies Texts<typeof en>;
