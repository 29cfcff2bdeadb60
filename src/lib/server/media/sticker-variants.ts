import type { Locale } from '../../i18n/locale.ts';

/**
 * The twelve stickers of a pack: what each says and shows. The same list drives the offline
 * drawings, the prompts sent to image models and the emoji Telegram files each sticker under.
 */
export type BadgeShape = 'circle' | 'burst' | 'rounded' | 'heart' | 'bubble' | 'star';
export type Decoration =
	'hearts' | 'stars' | 'sparkles' | 'confetti' | 'zzz' | 'drops' | 'bangs' | 'notes' | 'question' | 'rays';

export interface StickerVariant {
	key: string;
	emoji: string;
	caption: Record<Locale, string>;
	/** What the figure does, for image-model prompts. */
	pose: string;
	shape: BadgeShape;
	decoration: Decoration;
	/** Head tilt in degrees and whether the figure looks the other way. */
	tilt: number;
	mirror: boolean;
	/** 1 = head and shoulders; larger = closer on the face. */
	zoom: number;
}

export const STICKER_VARIANTS: readonly StickerVariant[] = [
	{
		key: 'hello',
		emoji: '👋',
		caption: { en: 'Hi!', ru: 'Привет!', uz: 'Salom!' },
		pose: 'waving hello with a big smile',
		shape: 'circle',
		decoration: 'sparkles',
		tilt: -6,
		mirror: false,
		zoom: 1
	},
	{
		key: 'wow',
		emoji: '😮',
		caption: { en: 'WOW!', ru: 'ВАУ!', uz: 'VOY!' },
		pose: 'amazed, hands on cheeks',
		shape: 'burst',
		decoration: 'bangs',
		tilt: 5,
		mirror: true,
		zoom: 1.15
	},
	{
		key: 'lol',
		emoji: '😂',
		caption: { en: 'LOL', ru: 'Ха-ха', uz: 'Ha-ha' },
		pose: 'laughing out loud',
		shape: 'rounded',
		decoration: 'drops',
		tilt: -10,
		mirror: false,
		zoom: 1.05
	},
	{
		key: 'love',
		emoji: '❤️',
		caption: { en: 'Love it', ru: 'Обожаю', uz: 'Sevaman' },
		pose: 'making a heart with hands',
		shape: 'heart',
		decoration: 'hearts',
		tilt: 0,
		mirror: false,
		zoom: 1
	},
	{
		key: 'cool',
		emoji: '😎',
		caption: { en: 'Cool', ru: 'Круто', uz: "Zo'r" },
		pose: 'confident, arms crossed',
		shape: 'star',
		decoration: 'rays',
		tilt: 4,
		mirror: true,
		zoom: 0.95
	},
	{
		key: 'thanks',
		emoji: '🙏',
		caption: { en: 'Thanks!', ru: 'Спасибо!', uz: 'Rahmat!' },
		pose: 'thankful, hands together',
		shape: 'bubble',
		decoration: 'sparkles',
		tilt: -3,
		mirror: false,
		zoom: 1.1
	},
	{
		key: 'ok',
		emoji: '👌',
		caption: { en: 'OK!', ru: 'Ок!', uz: 'Mayli!' },
		pose: 'showing an OK sign',
		shape: 'rounded',
		decoration: 'stars',
		tilt: 8,
		mirror: true,
		zoom: 1
	},
	{
		key: 'party',
		emoji: '🎉',
		caption: { en: 'Party!', ru: 'Ура!', uz: 'Bayram!' },
		pose: 'celebrating with confetti',
		shape: 'burst',
		decoration: 'confetti',
		tilt: -8,
		mirror: false,
		zoom: 0.95
	},
	{
		key: 'oops',
		emoji: '😅',
		caption: { en: 'Oops', ru: 'Упс', uz: 'Voy' },
		pose: 'embarrassed, scratching head',
		shape: 'circle',
		decoration: 'drops',
		tilt: 10,
		mirror: true,
		zoom: 1.2
	},
	{
		key: 'yes',
		emoji: '👍',
		caption: { en: 'Yes!', ru: 'Да!', uz: 'Ha!' },
		pose: 'thumbs up',
		shape: 'star',
		decoration: 'stars',
		tilt: -4,
		mirror: false,
		zoom: 1
	},
	{
		key: 'hmm',
		emoji: '🤔',
		caption: { en: 'Hmm…', ru: 'Хм…', uz: 'Hmm…' },
		pose: 'thinking, hand on chin',
		shape: 'bubble',
		decoration: 'question',
		tilt: 6,
		mirror: true,
		zoom: 1.1
	},
	{
		key: 'sleepy',
		emoji: '😴',
		caption: { en: 'Zzz', ru: 'Сплю', uz: 'Uyqu' },
		pose: 'sleepy, yawning',
		shape: 'rounded',
		decoration: 'zzz',
		tilt: -12,
		mirror: false,
		zoom: 1.05
	}
];

export const STICKERS_PER_PACK = STICKER_VARIANTS.length;

/** The built-in captions in one language, in pack order: what a pack says when its event sets none. */
export function builtInCaptions(locale: Locale): string[] {
	return STICKER_VARIANTS.map((variant) => variant.caption[locale]);
}
