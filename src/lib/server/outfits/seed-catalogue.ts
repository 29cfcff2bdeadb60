import type { Outfit, OutfitFigure } from '../../schemas/outfit.ts';
import { FIGURE_PALETTES } from './outfit-art.ts';

/**
 * The built-in outfits: only the seed of the default event's first published catalogue version
 * (the events migration wrote the same eight; `seedDefaultCatalogue` writes them at start when the
 * default event has no published version). From then on the database catalogue is the one list the
 * bot, the kiosk, the worker and the console read, with the one `Outfit` type (schemas/outfit.ts),
 * so a preview an operator uploads shows everywhere. Each is drawn as its own figure in its own
 * colours until a preview is uploaded.
 */
const SEED: readonly (Pick<Outfit, 'emoji' | 'title' | 'prompt'> & { id: OutfitFigure })[] = [
	{
		id: 'astronaut',
		emoji: '🚀',
		title: { en: 'Astronaut', ru: 'Космонавт', uz: 'Kosmonavt' },
		prompt: 'a white space suit with an orange mission patch and a round helmet visor pushed up'
	},
	{
		id: 'superhero',
		emoji: '🦸',
		title: { en: 'Superhero', ru: 'Супергерой', uz: 'Superqahramon' },
		prompt: 'a bright red superhero suit with a yellow star emblem, a flowing cape and a small eye mask'
	},
	{
		id: 'chef',
		emoji: '👨‍🍳',
		title: { en: 'Chef', ru: 'Шеф-повар', uz: 'Oshpaz' },
		prompt: "a white double-breasted chef's jacket, a red neckerchief and a tall toque"
	},
	{
		id: 'pirate',
		emoji: '🏴‍☠️',
		title: { en: 'Pirate', ru: 'Пират', uz: 'Qaroqchi' },
		prompt: 'a navy pirate coat with gold buttons, a striped shirt and a black tricorn hat'
	},
	{
		id: 'wizard',
		emoji: '🧙',
		title: { en: 'Wizard', ru: 'Волшебник', uz: 'Sehrgar' },
		prompt: 'a deep purple wizard robe with silver stars and a tall pointed hat'
	},
	{
		id: 'knight',
		emoji: '🛡️',
		title: { en: 'Knight', ru: 'Рыцарь', uz: 'Ritsar' },
		prompt: 'polished silver armour with a blue tabard and a plumed helmet'
	},
	{
		id: 'rockstar',
		emoji: '🎸',
		title: { en: 'Rock star', ru: 'Рок-звезда', uz: 'Rok yulduzi' },
		prompt: 'a black leather jacket with studs, a band T-shirt and star-shaped sunglasses'
	},
	{
		id: 'chapan',
		emoji: '🎉',
		title: { en: 'Festive chapan', ru: 'Праздничный чапан', uz: "Bayramona to'n" },
		prompt: 'a festive Uzbek chapan robe with ikat stripes and an embroidered doppi skullcap'
	}
];

export const SEED_OUTFITS: readonly Outfit[] = SEED.map((outfit) => ({
	id: outfit.id,
	emoji: outfit.emoji,
	title: { ru: outfit.title.ru, uz: outfit.title.uz, en: outfit.title.en },
	prompt: outfit.prompt,
	palette: FIGURE_PALETTES[outfit.id],
	figure: outfit.id,
	preview: null
}));
