import type { Db, Tx } from '../db/client.ts';
import { ACTIVE_JOB_STATUSES } from '../../schemas/job-status.ts';
import type { SessionNotice } from '../../schemas/kiosk.ts';
import { lockRows } from '../db/dialect/row-locks.ts';

export type PackLimitVerdict = { allowed: true } | { allowed: false; notice: SessionNotice; packName: string | null };

/**
 * Where the pack limit comes from: the settings in force (console Settings, else PACKS_PER_GUEST),
 * read before the transaction that checks it (the reader may query; the transaction holds the lock).
 */
export interface PackLimitSource {
	packsPerGuest: () => Promise<number>;
}

/**
 * `perGuest` packs per guest (the setting in force) plus `users.extra_packs_allowed`. A running job blocks a
 * second one (pack_in_progress); enough done packs block a new one (pack_ready, and the bot sends
 * the existing link, always built from users.pack_name).
 */
export async function checkPackLimit(db: Db | Tx, telegramUserId: bigint, perGuest: number): Promise<PackLimitVerdict> {
	const active = await db.job.count({ where: { telegramUserId, status: { in: [...ACTIVE_JOB_STATUSES] } } });
	if (active > 0) return { allowed: false, notice: 'pack_in_progress', packName: null };
	const [done, user] = await Promise.all([
		db.job.count({ where: { telegramUserId, status: 'done' } }),
		db.user.findUnique({ where: { telegramUserId }, select: { extraPacksAllowed: true, packName: true } })
	]);
	const limit = perGuest + (user?.extraPacksAllowed ?? 0);
	if (done >= limit) return { allowed: false, notice: 'pack_ready', packName: user?.packName ?? null };
	return { allowed: true };
}

/**
 * The same check with the guest's `users` row locked until the transaction ends, for the step
 * that queues the job: two photos of one guest racing (two kiosks, two web processes) are decided
 * one after the other, so the second sees the first one's job.
 */
export async function checkPackLimitLocked(
	tx: Tx,
	telegramUserId: bigint,
	perGuest: number
): Promise<PackLimitVerdict> {
	await lockRows(tx, 'users', 'telegram_user_id', [telegramUserId]);
	return checkPackLimit(tx, telegramUserId, perGuest);
}
