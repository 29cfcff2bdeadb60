import type { Logger } from '../log/logger.ts';
import type { BotBudget } from '../telegram/bot-budget.ts';
import type { ChatCooldown } from '../telegram/flood-control.ts';
import { SECOND, type Clock } from '../time/clock.ts';
import { decideAfterFailure, type EndReason, type FailureLadder } from './failure-ladder.ts';
import { recordRightAfterSend } from './record-after-send.ts';

/**
 * One pass of an outbox, whatever it sends:
 *
 *   claim a due row with a lease → prepare (or end it without a call) → take a place in the send
 *   budget → send through the Bot API boundary → record at once
 *                                   ↘ on failure: the one failure ladder (failure-ladder.ts)
 *
 * A sender is a small `OutboxSender` in its own domain folder (broadcasts/, leads/, jobs/): its
 * claim (its own SQL, picked with pickRowToClaim so N workers on PostgreSQL each take a different
 * row), its message, its records. The lease, budget, backoff, poison rows and logging are here.
 */
export interface OutboxSender<Row, Message, Sent> {
	/** For logs: `broadcast`, `lead card`, `guest notice`. */
	name: string;
	/** Rows one pass handles at the most. */
	perPass: number;
	/** A pass stops after this long (checked between rows); none = only perPass bounds it. */
	passMs?: number;
	ladder: FailureLadder;
	/**
	 * Where the places in the bot's send budget come from: `guest` (may I send now? no → the row
	 * waits a second, no attempt counted), `bulk` (the broadcasts' paced lane, waits out short waits,
	 * stops for a 429's hold), or `client` (the sender's API client takes them itself: the leads'
	 * shared client, which paces cards, pings, edits and reminders alike).
	 */
	places: 'guest' | 'bulk' | 'client';
	/**
	 * A sender that writes to one chat only (the sales group): while it cools down after a 429 no
	 * row is claimed, and a failed row ends the pass (the next would fail the same way).
	 */
	oneChat?: bigint;
	/** Claims the next due row, its lease pushed ahead; null when none is due. */
	claim(now: Date): Promise<Row | null>;
	/** Which try this is (1 = the first), counted the way the row's table counts. */
	attempt(row: Row): number;
	chatId(row: Row): bigint;
	/** Log fields naming the row. */
	describe(row: Row): Record<string, unknown>;
	/** What to send, why the row ends without a call (opted out, blocked, outdated), or until when it waits uncounted. */
	prepare(row: Row): Promise<{ message: Message } | { end: 'blocked' | 'skipped'; reason: string } | { later: Date }>;
	send(row: Row, message: Message): Promise<Sent>;
	/** Telegram took it: recorded right away (retried, recordRightAfterSend). */
	recordSent(row: Row, message: Message, sent: Sent): Promise<void>;
	/** Back to the queue until `retryAt`; `countsAsAttempt` false: no call was made, or a 429 the ladder does not count. */
	postpone(row: Row, retryAt: Date, error: string | null, countsAsAttempt: boolean): Promise<void>;
	/** The row will not be sent; `called`: the ladder ended it after a failed call (`reason` is Telegram's error), not prepare. */
	end(row: Row, as: EndReason, reason: string, called: boolean): Promise<void>;
	/** Crash injection steps for the crash tests (jobs/run/crash-points.ts). */
	crashSteps?: { afterClaim?: string; afterSend?: string };
}

export interface OutboxDeps {
	clock: Clock;
	logger: Logger;
	/**
	 * The bot's one send budget (bot-budget.ts), required: every sender's message takes a place in it
	 * (a `client` sender through its paced client). A 429 anywhere holds it for every worker.
	 */
	budget: Pick<BotBudget, 'holdMs' | 'take' | 'tryTake' | 'settle' | 'noteFlood'>;
	/** This worker's per-chat flood control, shared by every sender to a guest: a 429 on one keeps all off that chat. */
	cooldown: ChatCooldown;
	/** Real time in production; a FakeClock's advance in tests. */
	sleep?: (ms: number) => Promise<void>;
	random?: () => number;
	crashPoint?: (step: string) => void;
	shouldStop?: () => boolean;
}

/** A wait for a place longer than this (a 429's hold) is not slept through: the row goes back. */
export const MAX_INLINE_WAIT_MS = SECOND;
export const FLOOD_HOLD_NOTE = 'waiting out a Telegram flood hold (429)';

export type RowOutcome = 'sent' | 'ended' | 'later' | 'failed';

/** Runs one pass; returns how many rows were sent. */
export async function runOutboxPass<Row, Message, Sent>(
	sender: OutboxSender<Row, Message, Sent>,
	deps: OutboxDeps
): Promise<number> {
	const passEnds = sender.passMs === undefined ? Infinity : deps.clock.now().getTime() + sender.passMs;
	let sent = 0;
	for (let i = 0; i < sender.perPass && !deps.shouldStop?.() && deps.clock.now().getTime() < passEnds; i++) {
		if (!(await mayClaim(sender, deps))) break;
		const row = await sender.claim(deps.clock.now());
		if (row === null) break;
		if (sender.crashSteps?.afterClaim) deps.crashPoint?.(sender.crashSteps.afterClaim);
		const outcome = await handleRow(sender, deps, row);
		if (outcome === 'sent') sent++;
		if (outcome === 'failed' && sender.oneChat !== undefined) break;
	}
	return sent;
}

/** Before a claim: the bulk lane stops for a long hold (every worker reads it), one chat for its cooldown. */
async function mayClaim(sender: OutboxSender<unknown, unknown, unknown>, deps: OutboxDeps): Promise<boolean> {
	if (sender.oneChat !== undefined && deps.cooldown.isCooling(sender.oneChat, deps.clock.now())) return false;
	if (sender.places !== 'bulk') return true;
	const hold = await deps.budget.holdMs();
	if (hold > MAX_INLINE_WAIT_MS) return false;
	if (hold > 0) await sleepOf(deps)(hold);
	return true;
}

/** Sends one claimed row (or ends or postpones it); never leaves it without a record but for a crash. */
export async function handleRow<Row, Message, Sent>(
	sender: OutboxSender<Row, Message, Sent>,
	deps: OutboxDeps,
	row: Row
): Promise<RowOutcome> {
	const chatId = sender.chatId(row);
	if (deps.cooldown.isCooling(chatId, deps.clock.now())) {
		await sender.postpone(row, new Date(deps.clock.now().getTime() + SECOND), null, false);
		return 'later';
	}
	const prepared = await sender.prepare(row);
	if ('later' in prepared) {
		await sender.postpone(row, prepared.later, null, false);
		return 'later';
	}
	if ('end' in prepared) {
		await sender.end(row, prepared.end, prepared.reason, false);
		deps.logger.info(
			{ ...sender.describe(row), as: prepared.end, reason: prepared.reason },
			`${sender.name} ended without a message`
		);
		return 'ended';
	}
	const wait = await takePlace(sender, deps, chatId);
	if (wait > 0) {
		// No place now (the second is full, or another worker's 429 hold began): the row goes back, no attempt counted.
		await sender.postpone(
			row,
			new Date(deps.clock.now().getTime() + wait),
			sender.places === 'bulk' ? FLOOD_HOLD_NOTE : null,
			false
		);
		return 'later';
	}
	let sent: Sent;
	try {
		sent = await sendInPlace(sender, deps, chatId, () => sender.send(row, prepared.message));
	} catch (error) {
		return recordFailure(sender, deps, row, chatId, error);
	}
	if (sender.crashSteps?.afterSend) deps.crashPoint?.(sender.crashSteps.afterSend);
	await recordRightAfterSend(() => sender.recordSent(row, prepared.message, sent), deps.logger, sender.describe(row));
	return 'sent';
}

/** 0 = a place is taken; otherwise how long until one may be (nothing taken). */
async function takePlace(
	sender: OutboxSender<unknown, unknown, unknown>,
	deps: OutboxDeps,
	chatId: bigint
): Promise<number> {
	if (sender.places === 'client') return 0;
	if (sender.places === 'guest') return (await deps.budget.tryTake(chatId)) ? 0 : SECOND;
	// Short waits are slept through, a second at the most in all: a chat held by a call in flight is
	// asked about every 100 ms, and one a killed worker held stays so for 35 s — the row goes back.
	for (let slept = 0; ;) {
		const wait = await deps.budget.take(chatId, 'bulk');
		if (wait === 0 || slept + wait > MAX_INLINE_WAIT_MS) return wait;
		await sleepOf(deps)(wait);
		slept += wait;
	}
}

/** The call, then its place settled (answered or failed), so the chat's spacing counts from the answer. */
async function sendInPlace<Sent>(
	sender: OutboxSender<unknown, unknown, unknown>,
	deps: OutboxDeps,
	chatId: bigint,
	call: () => Promise<Sent>
): Promise<Sent> {
	if (sender.places === 'client') return call();
	try {
		return await call();
	} finally {
		await deps.budget.settle(chatId);
	}
}

async function recordFailure<Row>(
	sender: OutboxSender<Row, unknown, unknown>,
	deps: OutboxDeps,
	row: Row,
	chatId: bigint,
	error: unknown
): Promise<RowOutcome> {
	const now = deps.clock.now();
	const attempt = sender.attempt(row);
	const verdict = decideAfterFailure(error, attempt, sender.ladder, now, deps.random);
	if (verdict.retryAfterMs > 0) {
		// A 429: this chat is left alone that long, and the bot as a whole slows down (every worker).
		deps.cooldown.pause(chatId, now.getTime() + verdict.retryAfterMs);
		await deps.budget.noteFlood(verdict.retryAfterMs);
	}
	if (verdict.verdict === 'end') {
		await sender.end(row, verdict.as, verdict.error, true);
		deps.logger.warn(
			{ ...sender.describe(row), attempt, as: verdict.as, error: verdict.error },
			`${sender.name} given up`
		);
		return 'ended';
	}
	await sender.postpone(row, verdict.retryAt, verdict.error, verdict.countsAsAttempt);
	deps.logger.warn(
		{ ...sender.describe(row), attempt, retryAt: verdict.retryAt.toISOString(), error: verdict.error },
		`${sender.name} not sent; will retry`
	);
	return 'failed';
}

function sleepOf(deps: OutboxDeps): (ms: number) => Promise<void> {
	return deps.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
}
