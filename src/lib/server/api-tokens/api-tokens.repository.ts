import { API_SCOPES, type ApiScope } from '../../schemas/api-token.ts';
import type { Db, Tx } from '../db/client.ts';
import type { ApiToken } from '../db/generated/client.ts';
import { DAY, MINUTE, type Clock } from '../time/clock.ts';
import { generateTokenSecret, hashTokenSecret, shownPrefix } from './token-secret.ts';

/**
 * api_tokens: personal tokens for /api/v1. A token belongs to one operator and acts as them; the
 * secret leaves once, at creation. Owners see and revoke every token, others their own.
 */
export interface NewApiToken {
	name: string;
	scopes: ApiScope[];
	expiresInDays: number;
	ratePerMinute: number;
}

export interface ApiTokenView {
	id: number;
	name: string;
	prefix: string;
	scopes: ApiScope[];
	ratePerMinute: number;
	owner: string;
	createdAt: string;
	expiresAt: string;
	revokedAt: string | null;
	lastUsedAt: string | null;
	state: 'active' | 'expired' | 'revoked';
}

/** Last use is written at most once a minute per token: reads stay reads under steady polling. */
export const LAST_USE_RESOLUTION_MS = MINUTE;

export async function createApiToken(
	db: Db,
	clock: Clock,
	operatorId: number,
	input: NewApiToken
): Promise<{ id: number; secret: string; expiresAt: string }> {
	const secret = generateTokenSecret();
	const now = clock.now();
	const expiresAt = new Date(now.getTime() + input.expiresInDays * DAY).toISOString();
	const row = await db.apiToken.create({
		data: {
			operatorId,
			name: input.name,
			prefix: shownPrefix(secret),
			secretHash: hashTokenSecret(secret),
			scopes: input.scopes.join(','),
			ratePerMinute: input.ratePerMinute,
			createdAt: now.toISOString(),
			expiresAt
		}
	});
	return { id: row.id, secret, expiresAt };
}

export async function listApiTokens(
	db: Db,
	now: Date,
	viewer: { id: number; seesAll: boolean }
): Promise<ApiTokenView[]> {
	const rows = await db.apiToken.findMany({
		where: viewer.seesAll ? {} : { operatorId: viewer.id },
		orderBy: { id: 'desc' },
		include: { operator: { select: { username: true } } }
	});
	return rows.map((row) => ({
		id: row.id,
		name: row.name,
		prefix: row.prefix,
		scopes: readScopes(row.scopes),
		ratePerMinute: row.ratePerMinute,
		owner: row.operator.username,
		createdAt: row.createdAt,
		expiresAt: row.expiresAt,
		revokedAt: row.revokedAt,
		lastUsedAt: row.lastUsedAt,
		state: tokenState(row, now)
	}));
}

/** True when this call revoked it; a token already revoked, someone else's or missing gives false. */
export async function revokeApiToken(
	db: Db,
	clock: Clock,
	tokenId: number,
	viewer: { id: number; seesAll: boolean }
): Promise<boolean> {
	const { count } = await db.apiToken.updateMany({
		where: { id: tokenId, revokedAt: null, ...(viewer.seesAll ? {} : { operatorId: viewer.id }) },
		data: { revokedAt: clock.now().toISOString() }
	});
	return count === 1;
}

/**
 * A role change: every token of the operator keeps only the scopes the new role allows (in the
 * role change's transaction). Returns how many tokens lost a scope. A later promotion gives nothing back.
 */
export async function trimTokenScopes(tx: Db | Tx, operatorId: number, allowed: readonly ApiScope[]): Promise<number> {
	const tokens = await tx.apiToken.findMany({ where: { operatorId }, select: { id: true, scopes: true } });
	let trimmed = 0;
	for (const token of tokens) {
		const kept = readScopes(token.scopes).filter((scope) => allowed.includes(scope));
		if (kept.length === readScopes(token.scopes).length) continue;
		await tx.apiToken.update({ where: { id: token.id }, data: { scopes: kept.join(',') } });
		trimmed++;
	}
	return trimmed;
}

export function findApiTokenBySecret(db: Db, secret: string) {
	return db.apiToken.findUnique({ where: { secretHash: hashTokenSecret(secret) }, include: { operator: true } });
}

/** A single conditional update: nothing is written while the recorded use is under a minute old. */
export async function recordTokenUse(db: Db, tokenId: number, now: Date): Promise<void> {
	const stale = new Date(now.getTime() - LAST_USE_RESOLUTION_MS).toISOString();
	await db.apiToken.updateMany({
		where: { id: tokenId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: stale } }] },
		data: { lastUsedAt: now.toISOString() }
	});
}

export function tokenState(row: Pick<ApiToken, 'revokedAt' | 'expiresAt'>, now: Date): ApiTokenView['state'] {
	if (row.revokedAt) return 'revoked';
	return Date.parse(row.expiresAt) > now.getTime() ? 'active' : 'expired';
}

export function readScopes(stored: string): ApiScope[] {
	return stored.split(',').filter((scope): scope is ApiScope => (API_SCOPES as readonly string[]).includes(scope));
}
