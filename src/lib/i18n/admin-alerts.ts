import { fillTemplate } from './texts.ts';
import { en } from './admin-alerts/en.ts';

/**
 * Operator alerts go to admins in English only: they are staff, and the console shows the same
 * events in English. One function per alert, so every placeholder is given.
 */
export const ADMIN_ALERTS = {
	billing: (reason: string) => fillTemplate(en.billing, { reason }),
	quotaDay: (until: string, reason: string) => fillTemplate(en.quotaDay, { until, reason }),
	fallback: (from: string, to: string, failure: string, reason: string) =>
		fillTemplate(en.fallback, { from, to, failure, reason }),
	modelMissing: (reason: string) => fillTemplate(en.modelMissing, { reason }),
	modelsFound: () => en.modelsFound,
	providerAccess: (reason: string) => fillTemplate(en.providerAccess, { reason }),
	botTokenRefused: (reason: string, username: string) => fillTemplate(en.botTokenRefused, { reason, username }),
	setsLeftWithOldBot: (bot: string, names: readonly string[]) =>
		fillTemplate(en.setsLeftWithOldBot, { bot, count: names.length, names: names.join(', ') }),
	rpd: (day: string, count: number, threshold: number) => fillTemplate(en.rpd, { day, count, threshold })
};
