import type { Db } from '../../db/client.ts';

/**
 * Sticker set names, as Telegram requires them: 1–64 chars, letters/digits/underscore, starts with a letter,
 * no "__", ends `_by_<bot>`. Ours: `p<userId>_<n>_by_<bot>`, where n is one more than every number
 * this guest's packs ever used — in jobs, users and the reset_user entries of audit_log (whose
 * details carry `packNames` and `packLinks`) — because Telegram refuses a recently deleted name.
 */
export function formatPackName(userId: bigint, n: number, botUsername: string): string {
	return `p${userId}_${n}_by_${botUsername}`;
}

export function packLink(name: string): string {
	return `https://t.me/addstickers/${name}`;
}

/**
 * The bot that made a set, from its name's `_by_<bot>` (the first one: our prefix never holds
 * `_by_`, a bot's username may hold underscores). Telegram lets only that bot delete the set.
 */
export function packBotUsername(name: string): string | null {
	return /^.+?_by_(\w+)$/i.exec(name)?.[1] ?? null;
}

/** The pack number inside a name of this guest's (any earlier scheme with `<id>_<n>_by_` counts too). */
export function packNumberOf(name: string, userId: bigint): number | null {
	const match = new RegExp(`${userId}_(\\d+)_by_`, 'i').exec(name);
	return match ? Number(match[1]) : null;
}

/**
 * `isRetired` answers for names that survive only as fingerprints in the erasure ledger (a guest
 * erased by /forget or retention who came back): such numbers are skipped too.
 */
export async function choosePackName(
	db: Db,
	userId: bigint,
	botUsername: string,
	isRetired: (name: string) => Promise<boolean> = async () => false
): Promise<string> {
	const used = await listUsedPackNames(db, userId);
	let n = used.reduce((max, name) => Math.max(max, packNumberOf(name, userId) ?? 0), 0) + 1;
	while (await isRetired(formatPackName(userId, n, botUsername))) n++;
	return formatPackName(userId, n, botUsername);
}

export async function listUsedPackNames(db: Db, userId: bigint): Promise<string[]> {
	const jobs = await db.job.findMany({
		where: { telegramUserId: userId, packName: { not: null } },
		select: { packName: true }
	});
	const user = await db.user.findUnique({ where: { telegramUserId: userId }, select: { packName: true } });
	const resets = await db.auditLog.findMany({
		where: { action: 'reset_user', telegramUserId: userId },
		select: { details: true }
	});
	const names = [...jobs.map((j) => j.packName ?? ''), user?.packName ?? ''];
	for (const reset of resets) names.push(...namesFromResetDetails(reset.details));
	return names.filter(Boolean);
}

/** The agreed format of reset_user details: `{ packNames: string[], packLinks: string[], … }`. */
export function namesFromResetDetails(details: string | null): string[] {
	try {
		const parsed = JSON.parse(details ?? '{}') as { packNames?: unknown; packLinks?: unknown };
		const names = Array.isArray(parsed.packNames) ? parsed.packNames.map(String) : [];
		const links = Array.isArray(parsed.packLinks) ? parsed.packLinks.map((l) => String(l).split('/').pop() ?? '') : [];
		return [...names, ...links];
	} catch {
		return [];
	}
}
