import type { Texts } from '../texts.ts';
import type { en } from './en.ts';

/** What the bot says outside the guest flow (a bare /start, the pause, its error boundary), in Russian. */
export const ru = {
	welcomeWithoutToken:
		'Привет! Я делаю стикерпаки из селфи. Чтобы начать, нажмите «Старт» на стикер-киоске и отсканируйте QR-код на экране.',
	paused:
		'Создание стикеров ненадолго приостановлено. Попробуйте через несколько минут — киоск покажет, когда мы вернёмся.',
	pausedWithNote:
		'Создание стикеров ненадолго приостановлено. Сообщение от команды: «{note}». Киоск покажет, когда мы вернёмся.',
	somethingWentWrong: 'Извините, у нас что-то пошло не так. Попробуйте ещё раз через минуту.'
} satisfies Texts<typeof en>;
