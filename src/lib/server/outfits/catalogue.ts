import path from 'node:path';
import type { Locale } from '../../i18n/locale.ts';

/**
 * The outfit catalogue the bot offers after consent. `id` is what sessions.template_id and
 * jobs.template_id hold (short: it travels in callback data); `prompt` is the generation worker's
 * description of the costume. Previews are committed PNGs under static/outfits/ (drawn by
 * render-previews-cli.ts), served by the web app at /outfits/<id>.png.
 */
export interface Outfit {
	id: string;
	title: Record<Locale, string>;
	emoji: string;
	prompt: string;
}

export const OUTFITS: readonly Outfit[] = [
	{ id: 'astronaut', emoji: '🚀', title: { en: 'Astronaut', ru: 'Космонавт', uz: 'Kosmonavt' }, prompt: 'a white space suit with an orange mission patch and a round helmet visor pushed up' },
	{ id: 'superhero', emoji: '🦸', title: { en: 'Superhero', ru: 'Супергерой', uz: 'Superqahramon' }, prompt: 'a bright red superhero suit with a yellow star emblem, a flowing cape and a small eye mask' },
	{ id: 'chef', emoji: '👨‍🍳', title: { en: 'Chef', ru: 'Шеф-повар', uz: 'Oshpaz' }, prompt: "a white double-breasted chef's jacket, a red neckerchief and a tall toque" },
	{ id: 'pirate', emoji: '🏴‍☠️', title: { en: 'Pirate', ru: 'Пират', uz: 'Qaroqchi' }, prompt: 'a navy pirate coat with gold buttons, a striped shirt and a black tricorn hat' },
	{ id: 'wizard', emoji: '🧙', title: { en: 'Wizard', ru: 'Волшебник', uz: 'Sehrgar' }, prompt: 'a deep purple wizard robe with silver stars and a tall pointed hat' },
	{ id: 'knight', emoji: '🛡️', title: { en: 'Knight', ru: 'Рыцарь', uz: 'Ritsar' }, prompt: 'polished silver armour with a blue tabard and a plumed helmet' },
	{ id: 'rockstar', emoji: '🎸', title: { en: 'Rock star', ru: 'Рок-звезда', uz: 'Rok yulduzi' }, prompt: 'a black leather jacket with studs, a band T-shirt and star-shaped sunglasses' },
	{ id: 'chapan', emoji: '🎉', title: { en: 'Festive chapan', ru: 'Праздничный чапан', uz: "Bayramona to'n" }, prompt: 'a festive Uzbek chapan robe with ikat stripes and an embroidered doppi skullcap' }
];

export function findOutfit(id: string): Outfit | undefined {
	return OUTFITS.find((outfit) => outfit.id === id);
}

export function outfitTitle(outfit: Outfit, locale: Locale): string {
	return outfit.title[locale] ?? outfit.title.en;
}

/** Where the preview PNGs live on disk (shipped in static/, so the web app serves them too). */
export function outfitPreviewDir(projectRoot: string): string {
	return path.join(projectRoot, 'static', 'outfits');
}

export function outfitPreviewPath(projectRoot: string, id: string): string {
	return path.join(outfitPreviewDir(projectRoot), `${id}.png`);
}

/** One picture of the whole catalogue, numbered in catalogue order: the bot sends this. */
export function catalogueSheetPath(projectRoot: string): string {
	return path.join(outfitPreviewDir(projectRoot), 'catalogue.jpg');
}
