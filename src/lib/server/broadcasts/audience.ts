import type { Db, Tx } from '../db/client.ts';
import { Prisma } from '../db/generated/client.ts';
import { isBotBlocked } from '../guests/bot-blocked.ts';
import { findNewsOptIn } from './news-opt-ins.repository.ts';

/**
 * Who a broadcast goes to: guests who said yes to news (news_opt_ins.state = in: the question's
 * Yes or /news, and no /stop or "no more messages" since), still exist (forgotten and
 * retention-erased guests have no users row) and are not marked as having blocked the bot. The
 * selfie consent (users.consented_at) counts for nothing here: it only lets us send the pack.
 * Of one event (a session started at one of its kiosks, or a job made from its catalogue) or of
 * every event (eventId null). Raw SQL: the event test spans sessions, kiosk_sessions, jobs and
 * job_snapshots, which have no relations Prisma could follow. The event test is left out for
 * every event rather than tested against a NULL parameter, whose type PostgreSQL cannot infer.
 */
function audienceWhere(eventId: number | null): Prisma.Sql {
	const ofEvent =
		eventId === null
			? Prisma.empty
			: Prisma.sql`AND (EXISTS (SELECT 1 FROM sessions s JOIN kiosk_sessions k ON k.session_token = s.session_token
				WHERE s.telegram_user_id = u.telegram_user_id AND k.event_id = ${eventId})
			OR EXISTS (SELECT 1 FROM jobs j JOIN job_snapshots js ON js.job_id = j.job_id
				WHERE j.telegram_user_id = u.telegram_user_id AND js.event_id = ${eventId}))`;
	return Prisma.sql`EXISTS (SELECT 1 FROM news_opt_ins n WHERE n.telegram_user_id = u.telegram_user_id AND n.state = 'in')
		AND NOT EXISTS (SELECT 1 FROM guest_bot_blocks b WHERE b.telegram_user_id = u.telegram_user_id)
		${ofEvent}`;
}

export async function countAudience(db: Db | Tx, eventId: number | null): Promise<number> {
	const rows = await db.$queryRaw<
		{ n: bigint | number }[]
	>`SELECT count(*) AS n FROM users u WHERE ${audienceWhere(eventId)}`;
	return Number(rows[0]?.n ?? 0);
}

/**
 * One queued outbox row per guest of the audience, as it is at this moment; returns how many.
 * The selected parameters are cast: PostgreSQL types a parameter in a select list as text.
 */
export async function queueAudience(
	tx: Tx,
	broadcastId: number,
	eventId: number | null,
	nowIso: string
): Promise<number> {
	return tx.$executeRaw`
		INSERT INTO broadcast_recipients (broadcast_id, telegram_user_id, test, state, attempts, updated_at)
		SELECT CAST(${broadcastId} AS INTEGER), u.telegram_user_id, FALSE, 'queued', 0, CAST(${nowIso} AS TEXT) FROM users u WHERE ${audienceWhere(eventId)}
		ON CONFLICT DO NOTHING`;
}

export type Standing = 'ok' | 'gone' | 'not_opted_in' | 'opted_out' | 'blocked';

/**
 * Checked again right before each send: a guest may have opted out, blocked the bot or left since
 * the audience was chosen. The chat's own word (opted out with /stop or the button, blocked) comes
 * first: an operator's test chat is usually no guest at all, and test-send.ts honours exactly those
 * two. 'not_opted_in': a guest whose news opt-in is not `in` and was never ended by them (asked and
 * silent, No, or never asked) — left out of broadcasts, but no refusal of a test.
 */
export async function readStanding(db: Db | Tx, telegramUserId: bigint): Promise<Standing> {
	const [user, news, blocked] = await Promise.all([
		db.user.findUnique({ where: { telegramUserId }, select: { telegramUserId: true } }),
		findNewsOptIn(db, telegramUserId),
		isBotBlocked(db, telegramUserId)
	]);
	if (news?.state === 'out') return 'opted_out';
	if (blocked) return 'blocked';
	if (!user) return 'gone';
	if (news?.state !== 'in') return 'not_opted_in';
	return 'ok';
}

export interface OptedInCounts {
	/** Everyone a broadcast to all events would reach now. */
	total: number;
	/** Per event an operator can address (drafts left out), newest first. */
	events: { id: number; name: string; state: string; optedIn: number }[];
}

/** How many guests said yes to news (and would get a broadcast now), in total and per event. */
export async function countOptedIn(db: Db): Promise<OptedInCounts> {
	const events = await db.event.findMany({
		where: { state: { not: 'draft' } },
		select: { id: true, name: true, state: true },
		orderBy: { id: 'desc' }
	});
	const total = await countAudience(db, null);
	const perEvent = [];
	for (const event of events) perEvent.push({ ...event, optedIn: total === 0 ? 0 : await countAudience(db, event.id) });
	return { total, events: perEvent };
}
