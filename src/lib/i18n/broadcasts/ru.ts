import type { Texts } from '../texts.ts';
import type { en } from './en.ts';

/** What guests read around a broadcast, in Russian. */
export const ru = {
	optOutButton: '🔕 Больше не присылать',
	optedOut: 'Готово: больше не будем присылать вам такие сообщения. Ваши стикеры остаются с вами.',
	alreadyOptedOut: 'Вы уже отказались от сообщений: мы не будем их присылать.'
} satisfies Texts<typeof en>;
