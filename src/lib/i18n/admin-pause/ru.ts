import type { Texts } from '../texts.ts';
import type { en } from './en.ts';

/** What /pause and /resume answer an admin, in Russian. */
export const ru = {
	paused:
		'Пауза включена. Киоск не принимает новых гостей, гости в боте получают сообщение о паузе, очередь ждёт. Отправьте /resume, ' +
		'чтобы продолжить.',
	alreadyPaused: 'Пауза уже включена с {at} ({reason}). Отправьте /resume, чтобы продолжить.',
	resumed: 'Работа возобновлена. Киоск снова принимает гостей, очередь работает.',
	notPaused: 'Нечего возобновлять: создание стикеров и так работает.',
	defaultReason: 'пауза от администратора в Telegram'
} satisfies Texts<typeof en>;
