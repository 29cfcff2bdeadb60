import type { Db, Tx } from '../db/client.ts';
import type { Locale } from '../../i18n/locale.ts';
import { pickLocale } from '../../i18n/locale.ts';
import type { Clock } from '../time/clock.ts';
import { clearBotBlocked } from './bot-blocked.ts';

/** The Telegram profile the bot sees, saved at /start and at consent. */
export interface GuestProfile {
	telegramUserId: bigint;
	firstName?: string | null;
	lastName?: string | null;
	username?: string | null;
	languageCode?: string | null;
}

export interface GuestRow {
	telegramUserId: bigint;
	consentedAt: string | null;
	packName: string | null;
	extraPacksAllowed: number;
}

/** Creates or refreshes the guest's `users` row; never touches consent or pack columns. */
export async function saveGuestProfile(db: Db | Tx, clock: Clock, profile: GuestProfile): Promise<GuestRow> {
	const now = clock.now().toISOString();
	const fields = {
		firstName: profile.firstName ?? null,
		lastName: profile.lastName ?? null,
		username: profile.username ?? null
	};
	const user = await db.user.upsert({
		where: { telegramUserId: profile.telegramUserId },
		create: { telegramUserId: profile.telegramUserId, createdAt: now, ...fields },
		update: fields
	});
	// A guest who writes to the bot has unblocked it.
	await clearBotBlocked(db, profile.telegramUserId);
	if (profile.languageCode !== undefined)
		await saveGuestLanguage(db, clock, profile.telegramUserId, pickLocale(profile.languageCode));
	return user;
}

export async function saveGuestLanguage(
	db: Db | Tx,
	clock: Clock,
	telegramUserId: bigint,
	locale: Locale
): Promise<void> {
	const updatedAt = clock.now().toISOString();
	await db.guestLanguage.upsert({
		where: { telegramUserId },
		create: { telegramUserId, locale, updatedAt },
		update: { locale, updatedAt }
	});
}

/** The language to write to a guest in when no update of theirs is at hand (fallback en). */
export async function readGuestLanguage(db: Db | Tx, telegramUserId: bigint): Promise<Locale> {
	const row = await db.guestLanguage.findUnique({ where: { telegramUserId } });
	return pickLocale(row?.locale);
}

export function findGuest(db: Db | Tx, telegramUserId: bigint): Promise<GuestRow | null> {
	return db.user.findUnique({ where: { telegramUserId } });
}

/** Records consent once; a guest who consented before keeps the first moment. */
export async function recordConsent(db: Db | Tx, clock: Clock, telegramUserId: bigint): Promise<void> {
	await db.user.updateMany({
		where: { telegramUserId, consentedAt: null },
		data: { consentedAt: clock.now().toISOString() }
	});
}
