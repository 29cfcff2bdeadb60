import type { Texts } from '../texts.ts';
import type { en } from './en.ts';

/** The landing page, in Uzbek. */
export const uz = {
	meta: {
		title: "Tadbiringiz uchun AI stiker-kiosk — har bir mehmon Telegram'da o'z stikerlar to'plamini oladi",
		description:
			"Bayram yoki konferensiyadagi kiosk: mehmon selfi oladi va bir daqiqadan so'ng Telegram'da 12 ta shaxsiy stiker oladi. " +
			'Tadbiringizga band qiling.'
	},
	languages: 'Til',
	hero: {
		eyebrow: 'Tadbirlar uchun AI stiker-kiosk',
		title: 'Mehmonlaringiz stikerga aylanadi',
		lead:
			"Mehmon «Start»ni bosadi, QR-kodni skanerlaydi va selfi oladi. Taxminan bir daqiqada unga Telegram'da 12 ta stikerdan " +
			"iborat o'z to'plami keladi — sun'iy intellekt tadbiringiz uslubida chizadi.",
		cta: 'Kioskni band qilish',
		note: "Butun O'zbekiston bo'ylab konferensiyalar, to'ylar, korporativlar va brend tadbirlari uchun."
	},
	features: {
		title: 'Kiosk nima qiladi',
		items: [
			{
				title: 'Har bir mehmonga 12 stiker',
				text:
					"Fotodagi filtr emas, balki bitta selfidan chizilgan pozalar va his-tuyg'ular to'plami — Telegram'ga bir " +
					"bosishda qo'shiladi."
			},
			{
				title: 'Tadbiringiz uslubi',
				text: "Sizning ranglaringizdagi liboslar va yozuvlar — kompaniya xudisi, to'y kostyumi, festival libosi."
			},
			{
				title: "Hech narsa o'rnatish shart emas",
				text: "Mehmonlar o'z Telegramidan foydalanadi. Kiosk — stenddagi planshet; biz uni o'rnatamiz va ishini jonli kuzatamiz."
			},
			{
				title: 'Suratlar saqlanmaydi',
				text: "To'plam tayyor bo'lishi bilan selfi o'chiriladi. Mehmon suratga olishdan oldin bunga aniq rozilik beradi."
			}
		]
	},
	samples: {
		title: 'Mehmonlar olib ketgan stikerlar',
		lead: "Har bir to'plam o'ziga xos — bular bizning standart uslubimizda chizilgan.",
		alt: 'Stiker namunasi'
	},
	steps: {
		title: 'Qanday ishlaydi',
		items: [
			{ title: '«Start»ni bosing', text: "Kiosk QR-kodni ko'rsatadi." },
			{
				title: 'Telefon bilan skanerlang',
				text: 'Telegram-botimiz ochiladi; mehmon rozilik beradi va libos tanlaydi.'
			},
			{ title: 'Jilmaying', text: 'Kiosk kamerasi soniyalarni sanaydi va selfi oladi.' },
			{ title: "To'plamni oling", text: "Bot stikerlar to'plami havolasini yuboradi — odatda ikki daqiqa ichida." }
		]
	},
	facts: [
		{ value: '12', label: "har bir to'plamda stiker" },
		{ value: '~90 s', label: "selfidan to'plamgacha" },
		{ value: '3', label: "til: o'zbek, rus, ingliz" }
	],
	form: {
		title: 'Tadbiringiz uchun kioskka ariza',
		lead: 'Kontaktingizni qoldiring — ish kuni davomida sana va narx haqida javob beramiz.',
		name: 'Ismingiz',
		namePlaceholder: 'Aziza',
		telegram: 'Telegram',
		telegramPlaceholder: '@username',
		phone: 'Telefon',
		phonePlaceholder: '+998 90 123 45 67',
		contactHint: 'Telegram yoki telefon — javob berishimiz uchun kamida bittasi.',
		eventDate: 'Tadbir sanasi',
		eventDatePlaceholder: '15-iyun yoki «kuz boshi»',
		guests: 'Mehmonlar',
		guestsPlaceholder: 'taxminan 200',
		comment: 'Izoh',
		commentPlaceholder: 'Joy, format, bilishimiz kerak bo‘lgan narsalar',
		submit: 'Ariza yuborish',
		sending: 'Yuborilmoqda…',
		privacy:
			"Bu ma'lumotlardan faqat arizangizga javob berish uchun foydalanamiz va ularni bir yil ichida (so'rasangiz — darhol) " +
			"o'chiramiz."
	},
	result: {
		receivedTitle: 'Ariza qabul qilindi — rahmat!',
		receivedText: "Arizangiz jamoamizda, tez orada siz bilan bog'lanamiz.",
		again: 'Yana bir ariza yuborish',
		invalid: 'Belgilangan maydonlarni tekshiring. Ariza hali yuborilmadi.',
		rateLimited:
			"Ulanishingizdan juda ko'p ariza keldi. Ariza yuborilmadi — bir soatdan so'ng urinib ko'ring yoki bizga Telegram'da " +
			'yozing.',
		unavailable:
			"Biz tomonda xatolik tufayli arizani saqlab bo'lmadi. U yuborilmadi — bir daqiqadan so'ng qayta urinib ko'ring.",
		network: "Serverga ulanib bo'lmadi, shuning uchun ariza yuborilmadi. Ulanishni tekshiring va tugmani yana bosing."
	},
	errors: {
		nameRequired: 'Iltimos, ismingizni yozing.',
		telegramInvalid: 'Telegram nomi 5–32 ta lotin harfi, raqam yoki pastki chiziqdan iborat, masalan @aziza_events.',
		phoneInvalid: "Bu telefon raqamiga o'xshamaydi. Namuna: +998 90 123 45 67.",
		contactRequired: 'Javob berishimiz uchun telefon yoki Telegram nomini qoldiring.',
		tooLong: 'Juda uzun.',
		badRequestId: 'Forma eskirgan. Sahifani yangilang va qayta yuboring.'
	},
	footer: 'AI stiker-kiosk · Toshkent'
} satisfies Texts<typeof en>;
