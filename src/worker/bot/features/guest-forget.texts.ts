import type { Locale } from '../../../lib/i18n/locale.ts';

/** What /forget says, per language (kept beside the feature, not in the shared texts.ts). */
const texts = {
	en: {
		ask: 'Delete everything we keep about you? Your sticker pack will be removed from Telegram, and your photos, drawings and our records of you will be deleted. This cannot be undone.',
		yes: 'Yes, delete everything',
		no: 'No, keep it',
		done: 'Done. Your sticker pack, your photos and drawings and our records of you are deleted. A copy stays in our daily backups until they rotate out (14 days at most); if a backup is ever restored, your erasure is applied again.',
		kept: 'Nothing was deleted.',
		nothing: 'We keep nothing about you: there is nothing to delete.',
		busy: 'Your sticker pack is being made right now. Please send /forget again once it has arrived.',
		failed: 'We could not remove your sticker pack from Telegram just now, so nothing was deleted yet. Please try /forget again in a few minutes.'
	},
	ru: {
		ask: 'Удалить всё, что мы храним о вас? Ваш стикерпак будет удалён из Telegram, а ваши фото, рисунки и наши записи о вас — стёрты. Это нельзя отменить.',
		yes: 'Да, удалить всё',
		no: 'Нет, оставить',
		done: 'Готово. Ваш стикерпак, фото, рисунки и наши записи о вас удалены. Копия остаётся в ежедневных резервных копиях, пока они не сменятся (не дольше 14 дней); если копию когда-нибудь восстановят, удаление будет применено снова.',
		kept: 'Ничего не удалено.',
		nothing: 'Мы ничего о вас не храним: удалять нечего.',
		busy: 'Ваш стикерпак как раз сейчас создаётся. Отправьте /forget ещё раз, когда он придёт.',
		failed: 'Сейчас не получилось удалить ваш стикерпак из Telegram, поэтому пока ничего не удалено. Попробуйте /forget ещё раз через несколько минут.'
	},
	uz: {
		ask: "Siz haqingizda saqlanayotgan hamma narsani o'chiraylikmi? Stikerlar to'plamingiz Telegramdan olib tashlanadi, suratlaringiz, rasmlaringiz va siz haqingizdagi yozuvlarimiz o'chiriladi. Buni qaytarib bo'lmaydi.",
		yes: "Ha, hammasini o'chirish",
		no: "Yo'q, qolsin",
		done: "Tayyor. Stikerlar to'plamingiz, suratlaringiz, rasmlaringiz va siz haqingizdagi yozuvlarimiz o'chirildi. Nusxasi kundalik zaxira nusxalarda ular almashguncha (ko'pi bilan 14 kun) qoladi; zaxira nusxa tiklansa, o'chirish qayta qo'llaniladi.",
		kept: "Hech narsa o'chirilmadi.",
		nothing: "Biz siz haqingizda hech narsa saqlamaymiz: o'chiradigan narsa yo'q.",
		busy: "Stikerlar to'plamingiz aynan hozir tayyorlanmoqda. U kelgach, /forget ni qayta yuboring.",
		failed: "Hozir stikerlar to'plamingizni Telegramdan o'chirib bo'lmadi, shuning uchun hali hech narsa o'chirilmadi. Bir necha daqiqadan so'ng /forget ni qayta yuboring."
	}
} satisfies Record<Locale, Record<string, string>>;

export type ForgetTextKey = keyof (typeof texts)['en'];

export function forgetText(locale: Locale, key: ForgetTextKey): string {
	return texts[locale][key];
}
