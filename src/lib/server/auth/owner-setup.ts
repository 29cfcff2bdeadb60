import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { recordAudit } from '../audit/audit-log.ts';
import type { Db } from '../db/client.ts';
import { lockRows } from '../db/dialect/row-locks.ts';
import { deleteSetting, readSetting, writeSetting } from '../settings/settings.repository.ts';
import type { Clock } from '../time/clock.ts';
import { hashPassword } from './password.ts';
import { describeOperatorProblem, normaliseUsername, OperatorError } from './operators.ts';
import type { OperatorIdentity } from './roles.ts';
import { generateSessionToken, hashSessionToken } from './session-token.ts';

/**
 * First run: while no operator exists, the web process issues a one-time setup token at start and
 * prints a link with it. Only the token's SHA-256 is stored (settings `console_setup_token`); the
 * first person to open the link creates the owner, which ends setup for good.
 */
export const SETUP_SETTING_KEY = 'console_setup_token';
const setupRecordSchema = z.object({ hash: z.string().length(64), created_at: z.string() });
const SETUP_DONE = 'Setup is already done. Sign in instead.';
const INVALID_SETUP_LINK = 'This setup link is not valid any more. Use the newest link in first-run-secrets.txt in the data directory.';

/** Setup is done once any operator exists. */
export async function isSetupDone(db: Db): Promise<boolean> {
	return (await db.operator.count()) > 0;
}

/** A fresh token (replacing any earlier one) while no operator exists; null once someone does. */
export async function issueSetupToken(db: Db, clock: Clock): Promise<string | null> {
	if ((await isSetupDone(db))) {
		await deleteSetting(db, SETUP_SETTING_KEY);
		return null;
	}
	const token = generateSessionToken();
	await writeSetting(db, clock, SETUP_SETTING_KEY, JSON.stringify({ hash: hashSessionToken(token), created_at: clock.now().toISOString() }));
	return token;
}

export function setupLink(publicBaseUrl: string, token: string): string {
	return `${publicBaseUrl}/console/setup?token=${encodeURIComponent(token)}`;
}

/** Whether setup is still open and this token is the current one (constant-time compare). */
export async function isSetupTokenValid(db: Db, token: string): Promise<boolean> {
	if ((await isSetupDone(db))) return false;
	return matchesStoredToken(await readSetting(db, SETUP_SETTING_KEY), token);
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
	if (await isSetupDone(db)) throw new OperatorError(SETUP_DONE);
	if (!(await isSetupTokenValid(db, input.token))) throw new OperatorError(INVALID_SETUP_LINK);
	const username = normaliseUsername(input.username);
	const passwordHash = await hashPassword(input.password);
	return db.$transaction(async (tx) => {
		// Two set-ups with the one link at once (two web processes on PostgreSQL): the token's row
		// is locked before counting, so the second counts the first's owner and is told setup is done.
		await lockRows(tx, 'settings', 'key', [SETUP_SETTING_KEY]);
		if ((await tx.operator.count()) > 0) throw new OperatorError(SETUP_DONE);
		const stored = (await tx.setting.findUnique({ where: { key: SETUP_SETTING_KEY } }))?.value ?? null;
		if (!matchesStoredToken(stored, input.token)) throw new OperatorError(INVALID_SETUP_LINK);
		const row = await tx.operator.create({
			data: { username, displayName: input.displayName?.trim() || null, role: 'owner', passwordHash, createdAt: clock.now().toISOString() }
		});
		await tx.setting.deleteMany({ where: { key: SETUP_SETTING_KEY } });
		await recordAudit(tx, clock, { name: username, ip: input.ip }, { action: 'setup_owner', details: { username } });
		return { id: row.id, username, displayName: row.displayName, role: 'owner' as const };
	});
}

function matchesStoredToken(stored: string | null, token: string): boolean {
	if (stored === null || token.length === 0 || token.length > 128) return false;
	let parsed: unknown;
	try {
		parsed = JSON.parse(stored);
	} catch {
		return false;
	}
	const record = setupRecordSchema.safeParse(parsed);
	if (!record.success) return false;
	return timingSafeEqual(Buffer.from(record.data.hash), Buffer.from(hashSessionToken(token)));
}
