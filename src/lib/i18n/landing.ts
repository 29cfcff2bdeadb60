import type { Locale } from './locale.ts';
import { landingEn } from './landing.en.ts';
import { landingRu } from './landing.ru.ts';
import { landingUz } from './landing.uz.ts';

/**
 * The landing page's words. Only the server imports this (the page gets its own language as page
 * data), so the browser bundle carries no translations — part of the 50 KB budget.
 */
export interface LandingTexts {
	meta: { title: string; description: string };
	languages: string;
	hero: { eyebrow: string; title: string; lead: string; cta: string; note: string };
	features: { title: string; items: { title: string; text: string }[] };
	samples: { title: string; lead: string; alt: string };
	steps: { title: string; items: { title: string; text: string }[] };
	facts: { value: string; label: string }[];
	form: {
		title: string;
		lead: string;
		name: string;
		namePlaceholder: string;
		telegram: string;
		telegramPlaceholder: string;
		phone: string;
		phonePlaceholder: string;
		contactHint: string;
		eventDate: string;
		eventDatePlaceholder: string;
		guests: string;
		guestsPlaceholder: string;
		comment: string;
		commentPlaceholder: string;
		submit: string;
		sending: string;
		privacy: string;
	};
	result: { receivedTitle: string; receivedText: string; again: string; invalid: string; rateLimited: string; unavailable: string; network: string };
	errors: Record<'nameRequired' | 'telegramInvalid' | 'phoneInvalid' | 'contactRequired' | 'tooLong' | 'badRequestId', string>;
	footer: string;
}

const LANDING_TEXTS: Record<Locale, LandingTexts> = { ru: landingRu, uz: landingUz, en: landingEn };

export function landingTexts(locale: Locale): LandingTexts {
	return LANDING_TEXTS[locale];
}
