import { recordAudit, type Actor } from '../audit/audit-log.ts';
import { DomainError } from '../errors/domain-error.ts';
import type { Db, Tx } from '../db/client.ts';
import { lockRows } from '../db/dialect/row-locks.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import type { Clock } from '../time/clock.ts';
import { describePasswordProblem, hashPassword } from './password.ts';
import { isRole, scopesOfRole, type OperatorIdentity, type Role } from './roles.ts';
import { trimTokenScopes } from '../api-tokens/api-tokens.repository.ts';

/**
 * The console's people: list, add with a role, change a role, remove (their sessions end with
 * either). A refusal (name taken, last owner, weak password) is an OperatorError, whose sentence is
 * shown as is. "Never the last owner" is decided by counting owners, so the owners' rows are
 * locked first (lockOwners): on PostgreSQL two owners removing each other would both count two.
 */
export class OperatorError extends DomainError {
	constructor(sentence: string) {
		super({ code: 'OperatorRefused', sentence });
		this.name = 'OperatorError';
		this.message = sentence;
	}
}

export const USERNAME_PATTERN = /^[a-z0-9][a-z0-9_.-]{2,31}$/;

export interface OperatorRow extends OperatorIdentity {
	createdAt: string;
	activeSessions: number;
}

export interface NewOperator {
	username: string;
	displayName?: string | null;
	role: Role;
	password: string;
}

/** Usernames are compared case-insensitively: stored and looked up in lower case. */
export function normaliseUsername(raw: string): string {
	return raw.trim().toLowerCase();
}

export function describeOperatorProblem(input: NewOperator): string | null {
	if (!USERNAME_PATTERN.test(normaliseUsername(input.username)))
		return 'The username needs 3–32 characters: letters, digits, dot, dash or underscore, starting with a letter or digit.';
	return describePasswordProblem(input.password);
}

export async function countOperators(db: Db): Promise<number> {
	return db.operator.count();
}

export async function listOperators(db: Db, clock: Clock): Promise<OperatorRow[]> {
	const now = clock.now().toISOString();
	const rows = await db.operator.findMany({
		orderBy: { id: 'asc' },
		include: { _count: { select: { sessions: { where: { expiresAt: { gt: now }, absoluteExpiresAt: { gt: now } } } } } }
	});
	return rows.map((row) => ({
		id: row.id,
		username: row.username,
		displayName: row.displayName,
		role: isRole(row.role) ? row.role : 'viewer',
		createdAt: row.createdAt,
		activeSessions: row._count.sessions
	}));
}

export async function addOperator(db: Db, clock: Clock, actor: Actor, input: NewOperator): Promise<OperatorIdentity> {
	const problem = describeOperatorProblem(input);
	if (problem) throw new OperatorError(problem);
	const username = normaliseUsername(input.username);
	const passwordHash = await hashPassword(input.password);
	const taken = new OperatorError(`An operator named “${username}” already exists.`);
	const added = db.$transaction(async (tx) => {
		if (await tx.operator.findUnique({ where: { username } })) throw taken;
		const row = await tx.operator.create({
			data: {
				username,
				displayName: input.displayName?.trim() || null,
				role: input.role,
				passwordHash,
				createdAt: clock.now().toISOString()
			}
		});
		await recordAudit(tx, clock, actor, { action: 'add_operator', details: { username, role: input.role } });
		return { id: row.id, username, displayName: row.displayName, role: input.role };
	});
	// The same name added from two web processes at once: the unique username decides, in the same words.
	return added.catch((error: unknown) => {
		throw isUniqueViolation(error) ? taken : error;
	});
}

/** Locks every owner's row for the rest of the transaction, so a count of owners after it stays true until the commit. */
async function lockOwners(tx: Tx): Promise<void> {
	const owners = await tx.operator.findMany({ where: { role: 'owner' }, select: { id: true } });
	await lockRows(
		tx,
		'operators',
		'id',
		owners.map((o) => o.id)
	);
}

/** Whether this operator is the only owner left (call after lockOwners). */
async function isLastOwner(tx: Tx, target: { role: string }): Promise<boolean> {
	return target.role === 'owner' && (await tx.operator.count({ where: { role: 'owner' } })) <= 1;
}

/**
 * Gives an operator another role and ends every session of theirs in the same transaction: a session
 * id never outlives the rights it was issued with, so they sign in again and get a new one. Their API
 * tokens lose the scopes the new role lacks in the same transaction (audited as `tokensTrimmed`).
 * Never your own role (another owner does that), never the last owner.
 */
export async function changeOperatorRole(
	db: Db,
	clock: Clock,
	actor: Actor & { operatorId: number },
	operatorId: number,
	role: Role
): Promise<{ sessionsEnded: number }> {
	if (operatorId === actor.operatorId) throw new OperatorError('You cannot change your own role. Ask another owner.');
	return db.$transaction(async (tx) => {
		await lockOwners(tx);
		const target = await tx.operator.findUnique({ where: { id: operatorId } });
		if (!target) throw new OperatorError('That operator no longer exists.');
		if (target.role === role) return { sessionsEnded: 0 };
		if (await isLastOwner(tx, target)) throw new OperatorError('The last owner must stay owner.');
		await tx.operator.update({ where: { id: operatorId }, data: { role } });
		const { count } = await tx.operatorSession.deleteMany({ where: { operatorId } });
		const tokensTrimmed = await trimTokenScopes(tx, operatorId, scopesOfRole(role));
		await recordAudit(tx, clock, actor, {
			action: 'change_operator_role',
			details: { username: target.username, from: target.role, to: role, sessionsEnded: count, tokensTrimmed }
		});
		return { sessionsEnded: count };
	});
}

/** Removes an operator and every session of theirs in one transaction. Never yourself, never the last owner. */
export async function removeOperator(
	db: Db,
	clock: Clock,
	actor: Actor & { operatorId: number },
	operatorId: number
): Promise<{ sessionsEnded: number }> {
	if (operatorId === actor.operatorId) throw new OperatorError('You cannot remove yourself. Ask another owner.');
	return db.$transaction(async (tx) => {
		await lockOwners(tx);
		const target = await tx.operator.findUnique({ where: { id: operatorId } });
		if (!target) throw new OperatorError('That operator no longer exists.');
		if (await isLastOwner(tx, target)) throw new OperatorError('The last owner cannot be removed.');
		const { count } = await tx.operatorSession.deleteMany({ where: { operatorId } });
		await tx.operator.delete({ where: { id: operatorId } });
		await recordAudit(tx, clock, actor, {
			action: 'remove_operator',
			details: { username: target.username, role: target.role, sessionsEnded: count }
		});
		return { sessionsEnded: count };
	});
}
