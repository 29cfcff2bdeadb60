import { recordAudit, type Actor } from '../audit/audit-log.ts';
import type { Db } from '../db/client.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { peekToken, takeToken } from '../rate-limits/rate-limit-buckets.repository.ts';
import type { RateLimit } from '../rate-limits/token-bucket.ts';
import { MINUTE, type Clock } from '../time/clock.ts';
import { generateLinkCode, hashLinkCode, normaliseLinkCode } from './link-code.ts';

/**
 * An operator's own Telegram chat, where test sends of a broadcast go. It is theirs only once the
 * chat itself has proven it: the console shows a one-time code, and the chat sends `/link <code>`
 * to the bot. A typed-in id proves nothing (anyone can type a stranger's), and a code the bot sent
 * to a typed-in id would itself be a message to a stranger; here the bot only ever answers a chat
 * that wrote to it. The id is stored with `telegram_verified_at`; an id without it (typed in
 * before proof was required) is shown but never sent to.
 */
export const LINK_CODE_TTL_MS = 10 * MINUTE;
/** Wrong codes one chat may send: 5 at once, then one more every 15 minutes. */
export const WRONG_LINK_CODES: RateLimit = { name: 'telegram-link-wrong', capacity: 5, refillPerSecond: 1 / (15 * 60) };

export interface OperatorTelegram {
	telegramId: string | null;
	/** When the chat proved it is theirs; null = not proven (no test sends). */
	verifiedAt: string | null;
	/** The moment the code last shown stops working, while it still works. */
	codeExpiresAt: string | null;
}

export async function readOperatorTelegram(db: Db, clock: Clock, operatorId: number): Promise<OperatorTelegram> {
	const row = await db.operator.findUnique({
		where: { id: operatorId },
		select: { telegramId: true, telegramVerifiedAt: true, linkCode: { select: { expiresAt: true } } }
	});
	const expiresAt = row?.linkCode?.expiresAt ?? null;
	return {
		telegramId: row?.telegramId?.toString() ?? null,
		verifiedAt: row?.telegramId ? row.telegramVerifiedAt : null,
		codeExpiresAt: expiresAt && expiresAt > clock.now().toISOString() ? expiresAt : null
	};
}

/** The chat a test send may go to: the operator's proven one, or null. */
export async function readVerifiedTelegramId(db: Db, operatorId: number): Promise<bigint | null> {
	const row = await db.operator.findUnique({
		where: { id: operatorId },
		select: { telegramId: true, telegramVerifiedAt: true }
	});
	return row?.telegramId && row.telegramVerifiedAt ? row.telegramId : null;
}

/** Whether the operator has an id typed in before proof was required (shown, never used). */
export async function hasUnprovenTelegramId(db: Db, operatorId: number): Promise<boolean> {
	return (
		(await db.operator.count({ where: { id: operatorId, telegramId: { not: null }, telegramVerifiedAt: null } })) > 0
	);
}

export interface IssuedLinkCode {
	code: string;
	command: string;
	expiresAt: string;
}

/** A new code for the console to show; it replaces the operator's previous one. Audited (never the code). */
export async function issueLinkCode(
	db: Db,
	clock: Clock,
	actor: Actor,
	operatorId: number,
	newCode = generateLinkCode
): Promise<IssuedLinkCode> {
	const now = clock.now();
	const expiresAt = new Date(now.getTime() + LINK_CODE_TTL_MS).toISOString();
	for (let attempt = 0; ; attempt++) {
		const code = newCode();
		const row = { codeHash: hashLinkCode(normaliseLinkCode(code)!), createdAt: now.toISOString(), expiresAt };
		try {
			await db.$transaction(async (tx) => {
				await tx.operatorLinkCode.upsert({ where: { operatorId }, create: { operatorId, ...row }, update: row });
				await recordAudit(tx, clock, actor, { action: 'operator_telegram_code', details: { expiresAt } });
			});
			return { code, command: `/link ${code}`, expiresAt };
		} catch (error) {
			// Another operator's live code has the same hash (1 in 2^40): draw again.
			if (!isUniqueViolation(error) || attempt >= 2) throw error;
		}
	}
}

export type LinkResult =
	| { kind: 'linked'; username: string }
	| { kind: 'wrong' }
	| { kind: 'expired' }
	| { kind: 'locked'; retryAfterSeconds: number };

/**
 * `/link <typed>` from `chatId`. A chat locked by too many wrong codes is refused even the right
 * one, so guessing stays slow; an expired code is not a wrong guess (it was right, only late).
 * The code is taken by a conditional delete, so of two chats sending it at once one wins. Looking
 * at the allowance before taking from it cannot be raced by the chat itself: the bot handles
 * updates one at a time, and one worker of a fleet polls them (the updates lease).
 */
export async function linkTelegramChat(db: Db, clock: Clock, chatId: bigint, typed: string): Promise<LinkResult> {
	const subject = chatId.toString();
	const allowance = await peekToken(db, clock, WRONG_LINK_CODES, subject);
	if (!allowance.allowed) return { kind: 'locked', retryAfterSeconds: allowance.retryAfterSeconds };
	const normalised = normaliseLinkCode(typed);
	const result = normalised
		? await takeCode(db, clock, chatId, hashLinkCode(normalised))
		: ({ kind: 'wrong' } as const);
	if (result.kind === 'wrong') await takeToken(db, clock, WRONG_LINK_CODES, subject);
	return result;
}

async function takeCode(db: Db, clock: Clock, chatId: bigint, codeHash: string): Promise<LinkResult> {
	const nowIso = clock.now().toISOString();
	return db.$transaction(async (tx) => {
		const code = await tx.operatorLinkCode.findUnique({
			where: { codeHash },
			include: { operator: { select: { username: true, disabledAt: true } } }
		});
		if (!code || code.operator.disabledAt) return { kind: 'wrong' };
		const { count } = await tx.operatorLinkCode.deleteMany({ where: { operatorId: code.operatorId, codeHash } });
		if (count === 0) return { kind: 'wrong' };
		if (code.expiresAt <= nowIso) return { kind: 'expired' };
		await tx.operator.update({
			where: { id: code.operatorId },
			data: { telegramId: chatId, telegramVerifiedAt: nowIso }
		});
		const actor: Actor = { name: code.operator.username, ip: null };
		await recordAudit(tx, clock, actor, {
			action: 'operator_telegram_verified',
			telegramUserId: chatId,
			details: { via: 'bot /link' }
		});
		return { kind: 'linked', username: code.operator.username };
	});
}

/** Forgets the operator's chat (proven or not) and any code still out. Audited. */
export async function unlinkTelegramChat(db: Db, clock: Clock, actor: Actor, operatorId: number): Promise<void> {
	await db.$transaction(async (tx) => {
		const before = await tx.operator.findUnique({ where: { id: operatorId }, select: { telegramId: true } });
		await tx.operator.update({ where: { id: operatorId }, data: { telegramId: null, telegramVerifiedAt: null } });
		await tx.operatorLinkCode.deleteMany({ where: { operatorId } });
		await recordAudit(tx, clock, actor, {
			action: 'operator_telegram_unlink',
			telegramUserId: before?.telegramId ?? null
		});
	});
}
