import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { recordAudit } from '../audit/audit-log.ts';
import type { Db } from '../db/client.ts';
import { lockRows } from '../db/dialect/row-locks.ts';
import { deleteSetting, readSetting, writeSetting } from '../settings/settings.repository.ts';
import { DAY, type Clock } from '../time/clock.ts';
import { hashPassword } from './password.ts';
import { describeOperatorProblem, normaliseUsername, OperatorError } from './operators.ts';
import type { OperatorIdentity } from './roles.ts';
import { generateSessionToken, hashSessionToken } from './session-token.ts';

/**
 * First run: while no operator exists, the web process issues a one-time setup token at start and
 * prints a link with it. Only the token's SHA-256 is stored (settings `console_setup_token`); the
 * first person to open the link creates the owner, which ends setup for good. A link works for
 * SETUP_LINK_LIFETIME_MS after it was issued (by the injected clock): one found later in an old
 * secrets file, a chat or a terminal's scroll-back opens nothing. The next start issues a new one.
 */
export const SETUP_SETTING_KEY = 'console_setup_token';
export const SETUP_LINK_LIFETIME_MS = DAY;
const setupRecordSchema = z.object({ hash: z.string().length(64), created_at: z.string() });
const SETUP_DONE = 'Setup is already done. Sign in instead.';
const INVALID_SETUP_LINK =
	'This setup link is not valid any more. Use the newest link in first-run-secrets.txt in the data directory.';
const EXPIRED_SETUP_LINK =
	'This setup link has expired (a link works for 24 hours). Restart the web process and use the new link it prints on its terminal and in first-run-secrets.txt in the data directory.';

/** What a setup link is worth now: `open` creates the owner; the others say why not. */
export type SetupLinkState = 'open' | 'expired' | 'invalid' | 'done';

/** Setup is done once any operator exists. */
export async function isSetupDone(db: Db): Promise<boolean> {
	return (await db.operator.count()) > 0;
}

/** A fresh token (replacing any earlier one) while no operator exists; null once someone does. */
export async function issueSetupToken(db: Db, clock: Clock): Promise<string | null> {
	if (await isSetupDone(db)) {
		await deleteSetting(db, SETUP_SETTING_KEY);
		return null;
	}
	const token = generateSessionToken();
	await writeSetting(
		db,
		clock,
		SETUP_SETTING_KEY,
		JSON.stringify({ hash: hashSessionToken(token), created_at: clock.now().toISOString() })
	);
	return token;
}

export function setupLink(publicBaseUrl: string, token: string): string {
	return `${publicBaseUrl}/console/setup?token=${encodeURIComponent(token)}`;
}

/** Whether setup is still open and this token is the current one, issued less than a day ago (constant-time compare). */
export async function setupLinkState(db: Db, clock: Clock, token: string): Promise<SetupLinkState> {
	if (await isSetupDone(db)) return 'done';
	return storedTokenState(await readSetting(db, SETUP_SETTING_KEY), token, clock);
}

export async function isSetupTokenValid(db: Db, clock: Clock, token: string): Promise<boolean> {
	return (await setupLinkState(db, clock, token)) === 'open';
}

export interface OwnerInput {
	token: string;
	username: string;
	displayName?: string | null;
	password: string;
	ip: string | null;
}

/** Creates the owner if (and only if) no operator exists yet and the token is the current one. */
export async function createOwner(db: Db, clock: Clock, input: OwnerInput): Promise<OperatorIdentity> {
	const problem = describeOperatorProblem({ ...input, role: 'owner' });
	if (problem) throw new OperatorError(problem);
	// Checked before the (slow, slot-holding) hashing too, so posts without the link cost no argon2 work.
	throwUnlessOpen(await setupLinkState(db, clock, input.token));
	const username = normaliseUsername(input.username);
	const passwordHash = await hashPassword(input.password);
	return db.$transaction(async (tx) => {
		// Two set-ups with the one link at once (two web processes on PostgreSQL): the token's row
		// is locked before counting, so the second counts the first's owner and is told setup is done.
		await lockRows(tx, 'settings', 'key', [SETUP_SETTING_KEY]);
		if ((await tx.operator.count()) > 0) throw new OperatorError(SETUP_DONE);
		const stored = (await tx.setting.findUnique({ where: { key: SETUP_SETTING_KEY } }))?.value ?? null;
		throwUnlessOpen(storedTokenState(stored, input.token, clock));
		const row = await tx.operator.create({
			data: {
				username,
				displayName: input.displayName?.trim() || null,
				role: 'owner',
				passwordHash,
				createdAt: clock.now().toISOString()
			}
		});
		await tx.setting.deleteMany({ where: { key: SETUP_SETTING_KEY } });
		await recordAudit(tx, clock, { name: username, ip: input.ip }, { action: 'setup_owner', details: { username } });
		return { id: row.id, username, displayName: row.displayName, role: 'owner' as const };
	});
}

function throwUnlessOpen(state: SetupLinkState): void {
	if (state === 'done') throw new OperatorError(SETUP_DONE);
	if (state === 'expired') throw new OperatorError(EXPIRED_SETUP_LINK);
	if (state === 'invalid') throw new OperatorError(INVALID_SETUP_LINK);
}

/** The stored record against `token`: a wrong token is `invalid` whatever its age, the right one `expired` after a day. */
function storedTokenState(stored: string | null, token: string, clock: Clock): Exclude<SetupLinkState, 'done'> {
	if (stored === null || token.length === 0 || token.length > 128) return 'invalid';
	let parsed: unknown;
	try {
		parsed = JSON.parse(stored);
	} catch {
		return 'invalid';
	}
	const record = setupRecordSchema.safeParse(parsed);
	if (!record.success) return 'invalid';
	if (!timingSafeEqual(Buffer.from(record.data.hash), Buffer.from(hashSessionToken(token)))) return 'invalid';
	const issuedAt = Date.parse(record.data.created_at);
	if (!Number.isFinite(issuedAt) || clock.now().getTime() - issuedAt >= SETUP_LINK_LIFETIME_MS) return 'expired';
	return 'open';
}
