import { z } from 'zod';
import type { Config } from '../config/config.ts';
import { LOCALES, type Locale } from '../../i18n/locale.ts';
import { EMULATOR_SALES_GROUP_ID } from '../leads/leads-config.ts';

/**
 * The settings an owner changes on the console's Settings page, applied without a restart. Each
 * has a text form (what the form shows and the `settings` row keeps), a rule that reads that text
 * (a sentence for the operator when it is wrong), and its first default from the environment: the
 * variable stays the value until someone sets one in the console, and again after "reset".
 */
export const SETTING_GROUPS = ['sales', 'guests', 'worker', 'provider', 'language'] as const;
export type SettingGroup = (typeof SETTING_GROUPS)[number];

interface SettingDef<T> {
	group: SettingGroup;
	/** The environment variable that gives the first default (docs/configuration.md). */
	env: string;
	label: string;
	/** What the setting does, in plain words, for the form. */
	hint: string;
	rule: z.ZodType<T, string>;
	/** The default in text form, from the environment. */
	fromEnv: (config: Config) => string;
	/** Choices for a select; absent = free text. */
	choices?: readonly string[];
}

const idListRule = z.string().transform((raw, ctx) => {
	const parts = raw.split(/[\s,]+/).filter(Boolean);
	const bad = parts.find((p) => !/^\d{1,20}$/.test(p));
	if (bad) {
		ctx.addIssue({ code: 'custom', message: `“${bad}” is not a Telegram user id: digits only, separated by commas.` });
		return z.NEVER;
	}
	return [...new Set(parts)].map((p) => BigInt(p));
});

const wholeNumber = (min: number, max: number) =>
	z.string().transform((raw, ctx) => {
		const n = Number(raw.trim());
		if (raw.trim() === '' || !Number.isInteger(n) || n < min || n > max) {
			ctx.addIssue({ code: 'custom', message: `Enter a whole number from ${min} to ${max}.` });
			return z.NEVER;
		}
		return n;
	});

const modelId = z
	.string()
	.transform((raw) => raw.trim())
	.pipe(
		z.string().regex(/^[\w.\-/:]{1,100}$/, {
			message: 'Enter the model id as the provider names it (letters, digits, . - _ / :).'
		})
	);

const oneOf = <const T extends readonly string[]>(choices: T, what: string) =>
	z
		.string()
		.transform((raw) => raw.trim())
		.pipe(
			z.enum(choices as unknown as [T[number], ...T[number][]], { message: `Choose ${what}: ${choices.join(', ')}.` })
		);

const idsText = (ids: readonly bigint[]) => ids.map(String).join(', ');

export const SETTING_DEFS = {
	salesGroupChatId: {
		group: 'sales',
		env: 'LEADS_CHAT_ID',
		label: 'Sales group chat id',
		hint: 'The Telegram group where new lead cards are posted (a group id starts with -100). Empty: cards wait until a group is set.',
		rule: z.string().transform((raw, ctx) => {
			const text = raw.trim();
			if (text === '') return null;
			if (!/^-?\d{1,20}$/.test(text)) {
				ctx.addIssue({
					code: 'custom',
					message: 'Enter the group’s chat id: digits, a group’s starts with -100 (e.g. -1001234567890).'
				});
				return z.NEVER;
			}
			return BigInt(text);
		}),
		fromEnv: (c) => c.LEADS_CHAT_ID ?? (c.telegram.mode === 'emulator' ? String(EMULATOR_SALES_GROUP_ID) : '')
	} satisfies SettingDef<bigint | null>,
	leadPressers: {
		group: 'sales',
		env: 'ADMIN_TELEGRAM_IDS',
		label: 'Who may press lead buttons',
		hint: 'Telegram user ids, separated by commas, allowed to set a lead’s status on its card. Empty: the admins below.',
		rule: idListRule,
		fromEnv: () => ''
	} satisfies SettingDef<bigint[]>,
	salesGroupLanguage: {
		group: 'sales',
		env: 'LEADS_GROUP_LOCALE',
		label: 'Sales group language',
		hint: 'The language of lead cards, reminders and the daily digest in the sales group.',
		rule: oneOf(LOCALES, 'a language'),
		choices: LOCALES,
		fromEnv: (c) => c.LEADS_GROUP_LOCALE
	} satisfies SettingDef<Locale>,
	adminIds: {
		group: 'guests',
		env: 'ADMIN_TELEGRAM_IDS',
		label: 'Admin Telegram ids',
		hint: 'Telegram user ids, separated by commas, that get admin alerts and may /pause and /resume the bot.',
		rule: idListRule,
		fromEnv: (c) => idsText(c.ADMIN_TELEGRAM_IDS)
	} satisfies SettingDef<bigint[]>,
	packsPerGuest: {
		group: 'guests',
		env: 'PACKS_PER_GUEST',
		label: 'Packs per guest',
		hint: 'How many sticker packs one guest may make (plus any extra packs granted on the Guests page).',
		rule: wholeNumber(1, 100),
		fromEnv: (c) => String(c.PACKS_PER_GUEST)
	} satisfies SettingDef<number>,
	workerSlots: {
		group: 'worker',
		env: 'WORKER_SLOTS',
		label: 'Packs drawn at once (per worker)',
		hint: 'How many packs each worker draws at the same time. More is faster if the image provider keeps up.',
		rule: wholeNumber(1, 16),
		fromEnv: (c) => String(c.WORKER_SLOTS)
	} satisfies SettingDef<number>,
	quotaWarning: {
		group: 'worker',
		env: 'RPD_WARN_THRESHOLD',
		label: 'Quota warning (image requests a day)',
		hint: 'Admins get one warning a day when the image model’s requests pass this number.',
		rule: wholeNumber(1, 1_000_000),
		fromEnv: (c) => String(c.RPD_WARN_THRESHOLD)
	} satisfies SettingDef<number>,
	imageProvider: {
		group: 'provider',
		env: 'IMAGE_PROVIDER',
		label: 'Image provider',
		hint: 'Who draws the stickers: offline (built-in, no AI), gemini or openai (each needs its API key).',
		rule: oneOf(['offline', 'gemini', 'openai'] as const, 'a provider'),
		choices: ['offline', 'gemini', 'openai'],
		fromEnv: (c) => c.IMAGE_PROVIDER
	} satisfies SettingDef<'offline' | 'gemini' | 'openai'>,
	geminiImageModel: {
		group: 'provider',
		env: 'GEMINI_IMAGE_MODEL',
		label: 'Gemini image model',
		hint: 'The Gemini model that draws. The worker asks Gemini before using a new id and keeps the old one if Gemini does not know it.',
		rule: modelId,
		fromEnv: (c) => c.GEMINI_IMAGE_MODEL
	} satisfies SettingDef<string>,
	geminiVisionModel: {
		group: 'provider',
		env: 'GEMINI_VISION_MODEL',
		label: 'Gemini vision model',
		hint: 'The Gemini model that looks at the selfie. Checked with Gemini before use, like the image model.',
		rule: modelId,
		fromEnv: (c) => c.GEMINI_VISION_MODEL
	} satisfies SettingDef<string>,
	openaiImageModel: {
		group: 'provider',
		env: 'OPENAI_IMAGE_MODEL',
		label: 'OpenAI image model',
		hint: 'The OpenAI model that draws. Checked with OpenAI before use; an unknown id is refused and the old one kept.',
		rule: modelId,
		fromEnv: (c) => c.OPENAI_IMAGE_MODEL
	} satisfies SettingDef<string>,
	defaultLanguage: {
		group: 'language',
		env: 'DEFAULT_LANGUAGE',
		label: 'Default language',
		hint: 'The bot’s language for a guest whose Telegram is set to a language other than Russian, Uzbek or English.',
		rule: oneOf(LOCALES, 'a language'),
		choices: LOCALES,
		fromEnv: (c) => c.DEFAULT_LANGUAGE
	} satisfies SettingDef<Locale>
} as const;

export type SettingName = keyof typeof SETTING_DEFS;
export const SETTING_NAMES = Object.keys(SETTING_DEFS) as SettingName[];
export type SettingValues = { [K in SettingName]: z.output<(typeof SETTING_DEFS)[K]['rule']> };

export function isSettingName(name: string): name is SettingName {
	return Object.hasOwn(SETTING_DEFS, name);
}

/** The setting's text read by its rule: the value, or the operator's sentence for what is wrong. */
export function readSettingText<K extends SettingName>(
	name: K,
	text: string
): { ok: true; value: SettingValues[K] } | { ok: false; problem: string } {
	const parsed = (SETTING_DEFS[name].rule as unknown as z.ZodType<SettingValues[K], string>).safeParse(text);
	if (parsed.success) return { ok: true, value: parsed.data };
	return { ok: false, problem: parsed.error.issues[0]?.message ?? 'This value is not valid.' };
}
