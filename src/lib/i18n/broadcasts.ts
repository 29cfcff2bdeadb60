import { translator } from './texts.ts';
import { en } from './broadcasts/en.ts';
import { ru } from './broadcasts/ru.ts';
import { uz } from './broadcasts/uz.ts';

/** The "no more messages" button under a broadcast and the answers to it and to /stop. */
export type BroadcastTextKey = keyof typeof en;

export const broadcastText = translator<typeof en>({ en, ru, uz });
