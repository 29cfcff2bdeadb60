import type { Locale } from '../../i18n/locale.ts';

/** What the worker tells guests and admins about generation, in ru/uz/en (never a stack trace). */
const TEXTS = {
	stage_passport: { en: '🎨 Looking at your photo…', ru: '🎨 Изучаем ваше фото…', uz: '🎨 Suratingizni ko‘rib chiqyapmiz…' },
	stage_anchor: { en: '✏️ Sketching your character…', ru: '✏️ Рисуем вашего персонажа…', uz: '✏️ Personajingizni chizyapmiz…' },
	stage_sheet: { en: '🖌 Drawing your 12 stickers…', ru: '🖌 Рисуем 12 стикеров…', uz: '🖌 12 ta stikerni chizyapmiz…' },
	stage_cut: { en: '✂️ Cutting out the stickers…', ru: '✂️ Вырезаем стикеры…', uz: '✂️ Stikerlarni qirqyapmiz…' },
	stage_heads: { en: '🙂 Putting your face on every sticker…', ru: '🙂 Переносим ваше лицо на каждый стикер…', uz: '🙂 Yuzingizni har bir stikerga qo‘yyapmiz…' },
	stage_qa: { en: '🔍 Checking every sticker…', ru: '🔍 Проверяем каждый стикер…', uz: '🔍 Har bir stikerni tekshiryapmiz…' },
	stage_uploading: { en: '📦 Uploading your pack to Telegram…', ru: '📦 Загружаем набор в Telegram…', uz: '📦 To‘plamni Telegramga yuklayapmiz…' },
	stage_done: { en: '✅ Your stickers are ready!', ru: '✅ Ваши стикеры готовы!', uz: '✅ Stikerlaringiz tayyor!' },
	link_placeholder: { en: '📦 Almost there — packing your stickers…', ru: '📦 Почти готово — собираем набор…', uz: '📦 Deyarli tayyor — to‘plamni yig‘yapmiz…' },
	link: {
		en: '🎉 Your sticker pack is ready! Tap to add it:\n{link}',
		ru: '🎉 Ваш набор стикеров готов! Нажмите, чтобы добавить:\n{link}',
		uz: '🎉 Stikerlar to‘plamingiz tayyor! Qo‘shish uchun bosing:\n{link}'
	},
	delay: {
		en: '⏳ This is taking a little longer than usual — your stickers are still on their way. Thank you for waiting!',
		ru: '⏳ Это занимает чуть больше времени, чем обычно, — стикеры уже в пути. Спасибо, что ждёте!',
		uz: '⏳ Bu odatdagidan biroz ko‘proq vaqt olyapti — stikerlaringiz yo‘lda. Kutganingiz uchun rahmat!'
	},
	failed: {
		en: '😔 Sorry, we could not draw your stickers this time. Please ask our staff at the kiosk — they can try again for you.',
		ru: '😔 К сожалению, в этот раз не получилось нарисовать стикеры. Обратитесь к сотрудникам у киоска — они попробуют ещё раз.',
		uz: '😔 Kechirasiz, bu safar stikerlarni chiza olmadik. Kiosk yonidagi xodimlarga murojaat qiling — ular qayta urinib ko‘radi.'
	},
	// A provider's refusal is said as our failure, never as the guest's photo or person.
	refused: {
		en: '😔 Sorry, our drawing service could not make stickers from this photo. Please ask our staff at the kiosk — a new photo usually works.',
		ru: '😔 К сожалению, наш сервис рисования не смог сделать стикеры по этому фото. Обратитесь к сотрудникам у киоска — с новым фото обычно получается.',
		uz: '😔 Kechirasiz, chizish xizmatimiz bu suratdan stikerlar yasay olmadi. Kiosk yonidagi xodimlarga murojaat qiling — yangi surat odatda yordam beradi.'
	},
	deadline: {
		en: '😔 Sorry, your stickers took too long and we had to stop. Please ask our staff at the kiosk — they can start it again.',
		ru: '😔 К сожалению, стикеры готовились слишком долго, и мы остановились. Обратитесь к сотрудникам у киоска — они запустят заново.',
		uz: '😔 Kechirasiz, stikerlar juda uzoq tayyorlandi va to‘xtatdik. Kiosk yonidagi xodimlarga murojaat qiling — ular qayta boshlaydi.'
	},
	pack_title: { en: 'My party stickers', ru: 'Мои стикеры с праздника', uz: 'Bayram stikerlarim' }
} as const satisfies Record<string, Record<Locale, string>>;

export type GenerationText = keyof typeof TEXTS;

export function generationText(locale: Locale, key: GenerationText, vars: Record<string, string> = {}): string {
	return TEXTS[key][locale].replace(/\{(\w+)\}/g, (_, name: string) => vars[name] ?? '');
}

/** Operator alerts go to admins in English: they are staff, and the console shows the same in English. */
export const ADMIN_ALERTS = {
	billing: (reason: string) => `⛔️ Image provider reports no funds / billing problem. The queue is paused (maintenance, source auto). Resume it in the console after topping up.\n${reason}`,
	quotaDay: (until: string, reason: string) => `⏸ Image provider daily quota is exhausted. The queue is paused until ${until} (midnight Pacific).\n${reason}`,
	fallback: (from: string, to: string, failure: string, reason: string) =>
		`🔀 Image provider ${from} cannot serve jobs (${failure}); ${to} (IMAGE_PROVIDER_FALLBACK) is drawing them instead. Each job tries ${from} first.\n${reason}`,
	rpd: (day: string, count: number, threshold: number) => `⚠️ ${count} image requests today (quota day ${day}, Pacific) — past the warning threshold of ${threshold}.`
};
