import type { Texts } from '../texts.ts';
import type { en } from './en.ts';

/** What /forget says, in Uzbek. */
export const uz = {
	ask:
		"Siz haqingizda saqlanayotgan hamma narsani o'chiraylikmi? Stikerlar to'plamingiz Telegramdan olib tashlanadi, " +
		"suratlaringiz, rasmlaringiz va siz haqingizdagi yozuvlarimiz o'chiriladi. Buni qaytarib bo'lmaydi.",
	yes: "Ha, hammasini o'chirish",
	no: "Yo'q, qolsin",
	done:
		"Tayyor. Telegramdan o'chirilgan stikerlar to'plamlari: {sets}. Suratlaringiz, rasmlaringiz va siz haqingizdagi " +
		"yozuvlarimiz ham o'chirildi. Nusxasi kundalik zaxira nusxalarda ular almashguncha (ko'pi bilan 14 kun) qoladi; zaxira " +
		"nusxa tiklansa, o'chirish qayta qo'llaniladi.",
	doneNoSets:
		"Tayyor. Telegramda sizning stikerlar to'plamingiz qolmagan edi; suratlaringiz, rasmlaringiz va siz haqingizdagi " +
		"yozuvlarimiz o'chirildi. Nusxasi kundalik zaxira nusxalarda ular almashguncha (ko'pi bilan 14 kun) qoladi; zaxira " +
		"nusxa tiklansa, o'chirish qayta qo'llaniladi.",
	doneSetsLeft:
		"Tayyor. Telegramdan o'chirilgan stikerlar to'plamlari: {sets}. Yana {left} tasini avvalgi botimiz yaratgan, uni endi u " +
		"orqali o'chira olmaymiz, shuning uchun hozircha Telegramda qoladi: jamoamiz xabardor va uni o'chiradi. Suratlaringiz, " +
		"rasmlaringiz va siz haqingizdagi yozuvlarimiz o'chirildi. Nusxasi kundalik zaxira nusxalarda ular almashguncha " +
		"(ko'pi bilan 14 kun) qoladi.",
	kept: "Hech narsa o'chirilmadi.",
	nothing: "Biz siz haqingizda hech narsa saqlamaymiz: o'chiradigan narsa yo'q.",
	busy: "Stikerlar to'plamingiz aynan hozir tayyorlanmoqda. U kelgach, /forget ni qayta yuboring.",
	failed:
		"Hozir stikerlar to'plamingizni Telegramdan o'chirib bo'lmadi, shuning uchun hali hech narsa o'chirilmadi. Bir necha " +
		"daqiqadan so'ng /forget ni qayta yuboring."
} satisfies Texts<typeof en>;
