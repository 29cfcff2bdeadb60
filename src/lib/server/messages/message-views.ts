import { readGuestBroadcasts } from '../broadcasts/guest-broadcasts.ts';
import type { Db } from '../db/client.ts';
import { DAY, type Clock } from '../time/clock.ts';
import { utcDayOf } from './message-log.ts';

/** What the console's Messages page shows (docs/console.md "Messages"). Ids travel as text. */
export interface DayActivity {
	day: string;
	incoming: number;
	outgoing: number;
	guests: number;
}

export interface MessageActivityView {
	days: DayActivity[];
	today: DayActivity;
	recent: ConversationHead[];
}

export interface ConversationHead {
	telegramUserId: string;
	name: string | null;
	username: string | null;
	lastAt: string;
	messages: number;
}

export interface ConversationLine {
	/** Unique in the conversation: `m<id>` for a chat message, `b<id>` for a broadcast's row. */
	key: string;
	direction: 'in' | 'out';
	/** A chat message's kind, or `broadcast`. */
	kind: string;
	text: string | null;
	at: string;
	/** A broadcast this person was sent or skipped: which, and what happened to their copy. */
	broadcast?: { id: number; test: boolean; label: string; words: string };
}

export interface ConversationView {
	found: boolean;
	telegramUserId: string | null;
	name: string | null;
	username: string | null;
	lines: ConversationLine[];
}

/** The newest lines of one conversation; older ones are rarely what an operator looks for. */
export const CONVERSATION_LINES = 300;
const RECENT_CONVERSATIONS = 12;

/** Every day of the window, days without traffic as zeros, so the chart has no holes. */
export async function readMessageActivity(db: Db, clock: Clock, days: number): Promise<MessageActivityView> {
	const now = clock.now().getTime();
	const wanted = Array.from({ length: days }, (_, i) => utcDayOf(new Date(now - (days - 1 - i) * DAY).toISOString()));
	const rows = await db.messageActivity.findMany({ where: { day: { gte: wanted[0] } } });
	const byDay = new Map(rows.map((r) => [r.day, r]));
	const dayOf = (day: string) => byDay.get(day) ?? { day, incoming: 0, outgoing: 0, guests: 0 };
	return {
		days: wanted.map(dayOf),
		today: dayOf(utcDayOf(clock.now().toISOString())),
		recent: await readRecentConversations(db)
	};
}

async function readRecentConversations(db: Db): Promise<ConversationHead[]> {
	// The users columns are grouped too: one users row per id, and PostgreSQL asks for every selected column.
	const rows = await db.$queryRaw<
		{ id: bigint; first_name: string | null; username: string | null; last_at: string; n: bigint }[]
	>`
		SELECT m.telegram_user_id AS id, u.first_name, u.username, max(m.at) AS last_at, count(*) AS n
		FROM bot_messages m LEFT JOIN users u ON u.telegram_user_id = m.telegram_user_id
		GROUP BY m.telegram_user_id, u.first_name, u.username ORDER BY last_at DESC LIMIT ${RECENT_CONVERSATIONS}`;
	return rows.map((r) => ({
		telegramUserId: String(r.id),
		name: r.first_name,
		username: r.username,
		lastAt: r.last_at,
		messages: Number(r.n)
	}));
}

/** A guest by Telegram id or @username (any case); an id without a users row still shows its messages (admins). */
export async function readConversation(db: Db, query: string): Promise<ConversationView> {
	const telegramUserId = await resolveGuestId(db, query.trim());
	if (telegramUserId === null) return { found: false, telegramUserId: null, name: null, username: null, lines: [] };
	const [user, newest, broadcasts] = await Promise.all([
		db.user.findUnique({ where: { telegramUserId }, select: { firstName: true, username: true } }),
		db.botMessage.findMany({ where: { telegramUserId }, orderBy: { id: 'desc' }, take: CONVERSATION_LINES }),
		readGuestBroadcasts(db, telegramUserId, CONVERSATION_LINES)
	]);
	const chat: ConversationLine[] = newest
		.reverse()
		.map((m) => ({ key: `m${m.id}`, direction: m.direction as 'in' | 'out', kind: m.kind, text: m.text, at: m.at }));
	const sent: ConversationLine[] = broadcasts.map((b) => ({
		key: `b${b.recipientId}`,
		direction: 'out',
		kind: 'broadcast',
		text: b.excerpt,
		at: b.at,
		broadcast: { id: b.broadcastId, test: b.test, label: b.label, words: b.words }
	}));
	// One timeline, oldest first (a stable sort keeps the chat's own order on equal times), the newest lines kept.
	const lines = [...chat, ...sent].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)).slice(-CONVERSATION_LINES);
	return {
		found: user !== null || lines.length > 0,
		telegramUserId: String(telegramUserId),
		name: user?.firstName ?? null,
		username: user?.username ?? null,
		lines
	};
}

async function resolveGuestId(db: Db, query: string): Promise<bigint | null> {
	if (/^\d{1,20}$/.test(query)) return BigInt(query);
	const username = query.replace(/^@/, '');
	if (username === '') return null;
	const rows = await db.$queryRaw<
		{ id: bigint }[]
	>`SELECT telegram_user_id AS id FROM users WHERE lower(username) = lower(${username}) LIMIT 1`;
	return rows[0] ? BigInt(rows[0].id) : null;
}
