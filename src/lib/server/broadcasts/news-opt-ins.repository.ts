import type { Db, Tx } from '../db/client.ts';
import type { NewsOptIn } from '../db/generated/client.ts';

/**
 * `news_opt_ins`: one row per guest, the one record of whether they may get broadcasts. Every
 * write is one conditional statement (an insert a primary key guards, an update conditional on
 * the state it found), so two updates racing — two presses, a press and /stop — each see the
 * other's result and neither needs a lock.
 */
export type NewsState = 'asked' | 'in' | 'out';
export type NewsVia = 'button' | 'news_command' | 'stop' | 'broadcast_button';

export interface NewsChoice {
	state: 'in' | 'out';
	via: NewsVia;
	wordingVersion: string | null;
	locale: string;
	broadcastId?: number | null;
}

/**
 * The question is queued at most once per guest: a row is made (state asked) only when the guest
 * has none — not after an earlier question, /news or /stop. Returns whether this call made it.
 */
export async function recordQuestionQueued(
	tx: Tx,
	telegramUserId: bigint,
	eventId: number | null,
	nowIso: string
): Promise<boolean> {
	const made = await tx.$executeRaw`
		INSERT INTO news_opt_ins (telegram_user_id, state, event_id, updated_at)
		VALUES (${telegramUserId}, 'asked', ${eventId}, ${nowIso})
		ON CONFLICT DO NOTHING`;
	return made === 1;
}

/** Telegram took the question: the words (version) and language the guest was shown, and when. */
export async function recordQuestionShown(
	db: Db | Tx,
	telegramUserId: bigint,
	wordingVersion: string,
	locale: string,
	nowIso: string
): Promise<void> {
	await db.newsOptIn.updateMany({
		where: { telegramUserId, state: 'asked' },
		data: { wordingVersion, locale, askedAt: nowIso, updatedAt: nowIso }
	});
}

/**
 * The question could not be shown (the guest blocked the bot, no such chat, Telegram trouble for an
 * hour): the guest was never asked, so the row goes and their next pack asks again. A question
 * that was shown, or answered meanwhile, keeps its row.
 */
export async function forgetUnshownQuestion(db: Db | Tx, telegramUserId: bigint): Promise<void> {
	await db.newsOptIn.deleteMany({ where: { telegramUserId, state: 'asked', askedAt: null } });
}

export function findNewsOptIn(db: Db | Tx, telegramUserId: bigint): Promise<NewsOptIn | null> {
	return db.newsOptIn.findUnique({ where: { telegramUserId } });
}

/** Yes or No under the question: only an unanswered question takes an answer. */
export async function recordQuestionAnswer(
	db: Db | Tx,
	telegramUserId: bigint,
	choice: NewsChoice,
	nowIso: string
): Promise<boolean> {
	const { count } = await db.newsOptIn.updateMany({
		where: { telegramUserId, state: 'asked' },
		data: {
			state: choice.state,
			via: choice.via,
			wordingVersion: choice.wordingVersion,
			locale: choice.locale,
			answeredAt: nowIso,
			updatedAt: nowIso
		}
	});
	return count > 0;
}

/**
 * The guest's own /news, /stop or the button under a broadcast: the row becomes `choice.state`
 * whatever it was, unless it already is (then nothing changes and the first moment is kept).
 * Returns whether it changed. Raw SQL: an upsert whose update is conditional, which Prisma's
 * upsert cannot express.
 */
export async function recordOwnChoice(
	db: Db | Tx,
	telegramUserId: bigint,
	choice: NewsChoice,
	nowIso: string
): Promise<boolean> {
	const broadcastId = choice.broadcastId ?? null;
	const changed = await db.$executeRaw`
		INSERT INTO news_opt_ins (telegram_user_id, state, wording_version, locale, via, broadcast_id, answered_at, updated_at)
		VALUES (${telegramUserId}, ${choice.state}, ${choice.wordingVersion}, ${choice.locale}, ${choice.via}, ${broadcastId}, ${nowIso}, ${nowIso})
		ON CONFLICT (telegram_user_id) DO UPDATE SET
			state = excluded.state, wording_version = excluded.wording_version, locale = excluded.locale, via = excluded.via,
			broadcast_id = excluded.broadcast_id, answered_at = excluded.answered_at, updated_at = excluded.updated_at
		WHERE news_opt_ins.state <> excluded.state`;
	return changed === 1;
}

/** Of these guests, how many said no (any way) at or after `sinceIso`. */
export function countOptedOutSince(db: Db, telegramUserIds: bigint[], sinceIso: string): Promise<number> {
	return db.newsOptIn.count({
		where: { telegramUserId: { in: telegramUserIds }, state: 'out', answeredAt: { gte: sinceIso } }
	});
}
