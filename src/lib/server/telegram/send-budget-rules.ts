/**
 * The rules of the bot's send budget (bot-budget.ts keeps their state in `telegram_send_budget`).
 *   - `bot`: the whole bot. Its row keeps the moments of the messages of the last second; the guest
 *     lane may fill `perSecond` of any rolling second, the bulk lane only `perSecond - guestReserve`,
 *     so the last places of every second are always left to guests.
 *   - `bulk`: the broadcasts' own even pace (`nextAt` moves on by 1000 / bulkPerSecond ms a message).
 *   - `chat:<id>`: one message every perChatMs (1.2 s) to a private chat, so never two in a second as
 *     Telegram sees them. The spacing counts from the previous call's answer, not its place: a place
 *     taken is held (`recent` = the place's token, naming its process; `nextAt` = taken + answerTimeoutMs) until its
 *     sender settles it when the Bot API answered (`nextAt` = answered + perChatMs). Telegram got the
 *     call before it answered, so however long a worker stalls between its place and its call, the
 *     next message to the chat arrives ≥ perChatMs after it. A place never settled (its worker died)
 *     is released as if answered when its process is known dead (dead-holds.ts), and frees the
 *     chat after answerTimeoutMs at the latest.
 *   - `group:<id>` (a negative chat id: groups): the same, one every perGroupMs = 3.1 s, so never more
 *     than 20 in any rolling minute — Telegram's per-group limit.
 *   - `hold`: a 429's retry_after; the bulk lane takes no place before its `nextAt`.
 * Pure functions of the rows and the time, so the rules are tested without a database.
 */
export interface BotLimits {
	/** Messages a second for the whole bot, a little under Telegram's ~30. */
	perSecond: number;
	/** The bulk lane's own even pace. */
	bulkPerSecond: number;
	/** Places in every second that bulk may not take. */
	guestReserve: number;
	/** Spacing between two messages to one private chat (Telegram: ~1 a second). */
	perChatMs: number;
	/** Spacing between two messages to one group chat (Telegram: 20 a minute). */
	perGroupMs: number;
	/** How long a place taken but not yet answered holds its chat at most (a worker that died holding it). */
	answerTimeoutMs: number;
}

/**
 * Each limit a little under Telegram's, because Telegram counts a message when it arrives, and
 * the time from a place taken to the call arriving varies (the database's answer, the event loop,
 * the network): two places taken exactly 1000 ms apart arrived 998 ms apart in the send-budget
 * benchmark. The margins absorb up to 200 ms of such jitter for a chat, 2 s for a group (20 places
 * 3.1 s apart span 58.9 s) and 2 messages a second overall.
 */
export const BOT_LIMITS: BotLimits = {
	perSecond: 28,
	bulkPerSecond: 22,
	guestReserve: 6,
	perChatMs: 1200,
	perGroupMs: 3100,
	// Longer than a Bot API call may take (the outbox client's timeout is 30 s, most answer in
	// milliseconds); short enough that a chat a killed worker held is free again soon.
	answerTimeoutMs: 35_000
};

/** A held chat is asked about again this often: its answer usually comes within milliseconds. */
export const HELD_POLL_MS = 100;

export type Lane = 'guest' | 'bulk';

export interface BudgetRow {
	key: string;
	nextAt: bigint;
	recent: string;
}

const WINDOW_MS = 1000;

/** A chat's key: groups (negative ids) are paced by the group limit. */
export function chatKey(chatId: bigint): string {
	return chatId < 0n ? `group:${chatId}` : `chat:${chatId}`;
}

/** The keys a message of `lane` to `chatId` reads (null: the bot's second only). */
export function budgetKeys(chatId: bigint | null, lane: Lane): string[] {
	const keys = lane === 'bulk' ? ['bot', 'bulk', 'hold'] : ['bot'];
	return chatId === null ? keys : [...keys, chatKey(chatId)];
}

/** The moments of the bot's messages still inside the second before `now`, oldest first. */
export function recentMoments(rows: readonly BudgetRow[], now: number): number[] {
	const text = rows.find((row) => row.key === 'bot')?.recent ?? '';
	return text === ''
		? []
		: text
				.split(',')
				.map(Number)
				.filter((at) => now - at < WINDOW_MS);
}

/** When the lane's share of the rolling second has room again (now or earlier = room now). */
function windowFreeAt(recent: readonly number[], now: number, lane: Lane, limits: BotLimits): number {
	const cap = lane === 'guest' ? limits.perSecond : limits.perSecond - limits.guestReserve;
	// The message that must leave the window before one more fits (none: there is room now).
	const blocking = recent[recent.length - cap];
	return blocking === undefined ? now : blocking + WINDOW_MS;
}

/** How long a message must wait from `now` (0 = it may take its place now). */
export function placeWait(
	rows: readonly BudgetRow[],
	chatId: bigint | null,
	lane: Lane,
	now: number,
	limits: BotLimits
): number {
	const keys = budgetKeys(chatId, lane).filter((key) => key !== 'bot');
	let freeAt = windowFreeAt(recentMoments(rows, now), now, lane, limits);
	for (const row of rows) if (keys.includes(row.key)) freeAt = Math.max(freeAt, rowFreeAt(row, now));
	return Math.max(0, freeAt - now);
}

/** When a row lets the next message go; a chat held by a call in flight is asked about again soon. */
function rowFreeAt(row: BudgetRow, now: number): number {
	const nextAt = Number(row.nextAt);
	return isHeld(row) && nextAt > now ? Math.min(nextAt, now + HELD_POLL_MS) : nextAt;
}

/**
 * A place's token names the process that took it (its worker_processes id), so the places of a
 * launch known dead can be released at once instead of after answerTimeoutMs.
 */
export function placeToken(holder: string, unique: string): string {
	return `${holder}${HOLDER_END}${unique}`;
}

/** The process a held place's token names ('' for a token without one). */
export function holderOf(token: string): string {
	const end = token.lastIndexOf(HOLDER_END);
	return end < 0 ? '' : token.slice(0, end);
}

const HOLDER_END = '#';

/** A chat's row whose last place is taken and not yet answered. */
export function isHeld(row: BudgetRow): boolean {
	return (row.key.startsWith('chat:') || row.key.startsWith('group:')) && row.recent !== '';
}

/** The spacing after a message to the chat of `key`. */
export function chatSpacingMs(key: string, limits: BotLimits): number {
	return key.startsWith('group:') ? limits.perGroupMs : limits.perChatMs;
}

/**
 * The rows as they stand once a message took its place at `now` (the 429 hold is only read): its
 * chat held by `token` until the call is answered (settledRow), answerTimeoutMs at the most.
 */
export function takePlace(
	rows: readonly BudgetRow[],
	chatId: bigint,
	lane: Lane,
	now: number,
	limits: BotLimits,
	token: string
): BudgetRow[] {
	const recent = [...recentMoments(rows, now), now].slice(-limits.perSecond).join(',');
	const taken: BudgetRow[] = [{ key: 'bot', nextAt: BigInt(now), recent }];
	const key = chatKey(chatId);
	const heldUntil = now + Math.max(limits.answerTimeoutMs, chatSpacingMs(key, limits));
	taken.push({ key, nextAt: BigInt(heldUntil), recent: token });
	if (lane === 'bulk') {
		const from = Math.max(Number(rows.find((row) => row.key === 'bulk')?.nextAt ?? now), now);
		taken.push({ key: 'bulk', nextAt: BigInt(Math.ceil(from + WINDOW_MS / limits.bulkPerSecond)), recent: '' });
	}
	return taken;
}

/** A chat's row once the call of its held place was answered at `answeredAt`: the spacing counts from there. */
export function settledRow(key: string, answeredAt: number, limits: BotLimits): BudgetRow {
	return { key, nextAt: BigInt(answeredAt + chatSpacingMs(key, limits)), recent: '' };
}
