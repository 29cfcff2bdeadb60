import type { ApiScope } from '../../schemas/api-token.ts';
import { isRole, type OperatorIdentity } from '../auth/roles.ts';
import type { Db } from '../db/client.ts';
import { findApiTokenBySecret, readScopes, recordTokenUse, tokenState } from './api-tokens.repository.ts';
import { isTokenSecretShape } from './token-secret.ts';

/**
 * Reads `Authorization: Bearer <secret>` for /api/v1. Every refusal is a 401 with a reason the
 * WWW-Authenticate header carries; the reasons are coarse on purpose (an unknown secret and one of a
 * removed operator read the same).
 */
export interface TokenIdentity {
	tokenId: number;
	tokenName: string;
	operator: OperatorIdentity;
	scopes: ApiScope[];
	ratePerMinute: number;
}

export type BearerResult =
	| { ok: true; identity: TokenIdentity }
	| { ok: false; reason: 'missing' | 'malformed' | 'invalid' | 'revoked' | 'expired' };

export async function authenticateBearer(db: Db, now: Date, authorization: string | null): Promise<BearerResult> {
	if (!authorization) return { ok: false, reason: 'missing' };
	const match = /^Bearer ([^\s]+)$/i.exec(authorization.trim());
	if (!match || !isTokenSecretShape(match[1]!)) return { ok: false, reason: 'malformed' };
	const row = await findApiTokenBySecret(db, match[1]!);
	if (!row || row.operator.disabledAt !== null || !isRole(row.operator.role)) return { ok: false, reason: 'invalid' };
	const state = tokenState(row, now);
	if (state !== 'active') return { ok: false, reason: state };
	await recordTokenUse(db, row.id, now);
	const { id, username, displayName, role } = row.operator;
	return {
		ok: true,
		identity: {
			tokenId: row.id,
			tokenName: row.name,
			operator: { id, username, displayName, role },
			scopes: readScopes(row.scopes),
			ratePerMinute: row.ratePerMinute
		}
	};
}
