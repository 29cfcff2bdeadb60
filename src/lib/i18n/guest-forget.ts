import { translator } from './texts.ts';
import { en } from './guest-forget/en.ts';
import { ru } from './guest-forget/ru.ts';
import { uz } from './guest-forget/uz.ts';

/** What /forget asks and answers a guest. */
export type ForgetTextKey = keyof typeof en;

export const forgetText = translator<typeof en>({ en, ru, uz });
