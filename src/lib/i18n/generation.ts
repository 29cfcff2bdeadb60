import { translator } from './texts.ts';
import { en } from './generation/en.ts';
import { ru } from './generation/ru.ts';
import { uz } from './generation/uz.ts';

/** What the worker tells a guest about their job: stages, delay, failure, the link, the pack's title. */
export type GenerationText = keyof typeof en;

export const generationText = translator<typeof en>({ en, ru, uz });
