import type { Texts } from '../texts.ts';
import type { en } from './en.ts';

/** What the worker tells a guest about their job, in Uzbek. */
export const uz = {
	stage_passport: '🎨 Suratingizni ko‘rib chiqyapmiz…',
	stage_anchor: '✏️ Personajingizni chizyapmiz…',
	stage_sheet: '🖌 12 ta stikerni chizyapmiz…',
	stage_cut: '✂️ Stikerlarni qirqyapmiz…',
	stage_heads: '🙂 Yuzingizni har bir stikerga qo‘yyapmiz…',
	stage_qa: '🔍 Har bir stikerni tekshiryapmiz…',
	stage_uploading: '📦 To‘plamni Telegramga yuklayapmiz…',
	stage_done: '✅ Stikerlaringiz tayyor!',
	link_placeholder: '📦 Deyarli tayyor — to‘plamni yig‘yapmiz…',
	link: '🎉 Stikerlar to‘plamingiz tayyor! Qo‘shish uchun bosing:\n{link}',
	delay: '⏳ Bu odatdagidan biroz ko‘proq vaqt olyapti — stikerlaringiz yo‘lda. Kutganingiz uchun rahmat!',
	failed:
		'😔 Kechirasiz, bu safar stikerlarni chiza olmadik. Kiosk yonidagi xodimlarga murojaat qiling — ular qayta urinib ko‘radi.',
	refused:
		'😔 Kechirasiz, chizish xizmatimiz bu suratdan stikerlar yasay olmadi. Kiosk yonidagi xodimlarga murojaat qiling — yangi surat odatda yordam beradi.',
	deadline:
		'😔 Kechirasiz, stikerlar juda uzoq tayyorlandi va to‘xtatdik. Kiosk yonidagi xodimlarga murojaat qiling — ular qayta ' +
		'boshlaydi.',
	no_face:
		'😔 Kechirasiz, bu suratda yuzni aniq ko‘ra olmadik va uni chiza olmadik. Kiosk yonidagi xodimlarga murojaat qiling — ' +
		'yangi surat bilan albatta chiqadi.',
	paused:
		'⏸ To‘plamingiz kechikmoqda: chizish biroz vaqtga to‘xtatildi. U pauzadan keyin shu yerga keladi — hech narsa qilish shart emas.',
	pausedWithNote:
		'⏸ To‘plamingiz kechikmoqda: chizish biroz vaqtga to‘xtatildi. Jamoadan xabar: «{note}». U pauzadan keyin shu yerga keladi — hech narsa qilish shart emas.',
	pack_title: 'Bayram stikerlarim'
} satisfies Texts<typeof en>;
