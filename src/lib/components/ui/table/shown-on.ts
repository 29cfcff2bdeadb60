/**
 * Which screens a column shows on, for a table that stacks its row on a phone: the wide columns
 * are `wide` (hidden below 640 px) and the one cell that carries the row there says everything
 * (its phone-only lines are `phone`). Hidden with display:none, so a screen reader skips them too.
 */
export type ShownOn = 'all' | 'phone' | 'wide';

export const shownOnClass: Record<ShownOn, string> = { all: '', phone: 'sm:hidden', wide: 'max-sm:hidden' };
