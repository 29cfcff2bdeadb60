import type { Texts } from '../texts.ts';
import type { en } from './en.ts';

/** What guests read around a broadcast, in Uzbek. */
export const uz = {
	optOutButton: '🔕 Boshqa yubormang',
	optedOut: 'Tayyor: endi sizga bunday xabarlar yubormaymiz. Stikerlaringiz o‘zingizda qoladi.',
	alreadyOptedOut: 'Siz xabarlardan allaqachon voz kechgansiz: biz ularni yubormaymiz.'
} satisfies Texts<typeof en>;
