import { translator } from './texts.ts';
import { en } from './bot/en.ts';
import { ru } from './bot/ru.ts';
import { uz } from './bot/uz.ts';

/** What the bot says outside the guest flow: a bare /start, the maintenance pause, its error boundary. */
export type BotTextKey = keyof typeof en;

export const botText = translator<typeof en>({ en, ru, uz });
