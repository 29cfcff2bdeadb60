import { translator } from './texts.ts';
import { en } from './admin-pause/en.ts';
import { ru } from './admin-pause/ru.ts';
import { uz } from './admin-pause/uz.ts';

/** What /pause and /resume answer an admin, in the admin's language. */
export type AdminPauseTextKey = keyof typeof en;

export const adminPauseText = translator<typeof en>({ en, ru, uz });
