import { recordAudit } from '../audit/audit-log.ts';
import { hasUnprovenTelegramId, readVerifiedTelegramId } from '../auth/operator-telegram.ts';
import type { Db, Tx } from '../db/client.ts';
import { DomainError } from '../errors/domain-error.ts';
import { peekToken, takeToken } from '../rate-limits/rate-limit-buckets.repository.ts';
import type { RateDecision, RateLimit } from '../rate-limits/token-bucket.ts';
import { DAY, MINUTE, SECOND } from '../time/clock.ts';
import { readStanding } from './audience.ts';
import type { BroadcastActionDeps } from './broadcast-actions.ts';
import { queueTestSend } from './broadcast-recipients.repository.ts';
import { findBroadcast } from './broadcasts.repository.ts';

/**
 * "Send a test to me": the broadcast exactly as guests will get it, to the operator's own chat —
 * only a chat that proved it is theirs (auth/operator-telegram.ts), only while that chat has not
 * opted out or blocked the bot (the same standing every copy is checked against, here and again
 * right before the worker sends), and at most 5 a minute and 30 a day per operator. Every send
 * and every refusal for the chat's standing or the limit is audited with the chat's id in
 * `telegram_user_id` (pseudonymised with the guest's rows should that chat ever be erased).
 */
export const TEST_SENDS_PER_MINUTE: RateLimit = {
	name: 'broadcast-test-minute',
	capacity: 5,
	refillPerSecond: 5 / (MINUTE / SECOND)
};
export const TEST_SENDS_PER_DAY: RateLimit = {
	name: 'broadcast-test-day',
	capacity: 30,
	refillPerSecond: 30 / (DAY / SECOND)
};

export type TestSendStanding = 'ok' | 'opted_out' | 'blocked';

/**
 * A test copy honours the chat's word like any copy: opted out or blocked → nothing. Not being a
 * consenting guest is no reason here: the chat is the operator's own, proven, and asked for it.
 */
export async function readTestSendStanding(db: Db | Tx, chatId: bigint): Promise<TestSendStanding> {
	const standing = await readStanding(db, chatId);
	return standing === 'opted_out' || standing === 'blocked' ? standing : 'ok';
}

export async function testSendBroadcast(
	deps: BroadcastActionDeps,
	id: number,
	operatorId: number
): Promise<{ telegramId: string }> {
	const chatId = await readVerifiedTelegramId(deps.db, operatorId);
	if (chatId === null)
		throw new DomainError({
			code: 'TestSendNeedsProvenChat',
			unproven: await hasUnprovenTelegramId(deps.db, operatorId)
		});
	if (!(await findBroadcast(deps.db, id))) throw new DomainError({ code: 'BroadcastNotFound', broadcastId: id });
	const standing = await readTestSendStanding(deps.db, chatId);
	if (standing !== 'ok') {
		await auditRefusal(deps, id, chatId, standing);
		throw new DomainError({ code: 'TestSendChatRefuses', telegramUserId: chatId, standing });
	}
	const limit = await takeTestSendAllowance(deps, operatorId);
	if (!limit.allowed) {
		await auditRefusal(deps, id, chatId, 'rate_limited', {
			per: limit.per,
			retryAfterSeconds: limit.retryAfterSeconds
		});
		throw new DomainError({
			code: 'TestSendRateLimited',
			per: limit.per,
			limit: limit.per === 'minute' ? TEST_SENDS_PER_MINUTE.capacity : TEST_SENDS_PER_DAY.capacity,
			retryAfterSeconds: limit.retryAfterSeconds
		});
	}
	const nowIso = deps.clock.now().toISOString();
	await deps.db.$transaction(async (tx) => {
		await queueTestSend(tx, nowIso, id, chatId);
		await recordAudit(tx, deps.clock, deps.actor, {
			action: 'broadcast_test_send',
			telegramUserId: chatId,
			details: { broadcastId: id }
		});
	});
	return { telegramId: chatId.toString() };
}

type Allowance = { allowed: true } | { allowed: false; per: 'minute' | 'day'; retryAfterSeconds: number };

/**
 * Both limits must allow it. The day's is looked at first without taking, so a test the minute's
 * limit refuses never spends one of the day's 30; a test the day's refuses spends a minute token,
 * which only delays the next try that would be refused anyway.
 */
async function takeTestSendAllowance(deps: BroadcastActionDeps, operatorId: number): Promise<Allowance> {
	const subject = String(operatorId);
	const refused = (per: 'minute' | 'day', decision: RateDecision): Allowance | null =>
		decision.allowed ? null : { allowed: false, per, retryAfterSeconds: decision.retryAfterSeconds };
	return (
		refused('day', await peekToken(deps.db, deps.clock, TEST_SENDS_PER_DAY, subject)) ??
		refused('minute', await takeToken(deps.db, deps.clock, TEST_SENDS_PER_MINUTE, subject)) ??
		refused('day', await takeToken(deps.db, deps.clock, TEST_SENDS_PER_DAY, subject)) ?? { allowed: true }
	);
}

async function auditRefusal(
	deps: BroadcastActionDeps,
	broadcastId: number,
	chatId: bigint,
	reason: TestSendStanding | 'rate_limited',
	more: Record<string, unknown> = {}
): Promise<void> {
	await recordAudit(deps.db, deps.clock, deps.actor, {
		action: 'broadcast_test_refused',
		telegramUserId: chatId,
		details: { broadcastId, reason, ...more }
	});
}
