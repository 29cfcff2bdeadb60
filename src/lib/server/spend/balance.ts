import { z } from 'zod';
import { recordAudit, type Actor } from '../audit/audit-log.ts';
import { DomainError } from '../errors/domain-error.ts';
import type { Db } from '../db/client.ts';
import { lockKeys } from '../db/dialect/row-locks.ts';
import { readSetting } from '../settings/settings.repository.ts';
import type { Clock } from '../time/clock.ts';

/**
 * The provider balance estimate: an operator types the real balance from the billing page
 * (settings billing_balance_override = {value, set_at}); spend recorded since then is subtracted.
 */
export const BALANCE_KEY = 'billing_balance_override';
/** The largest balance an operator may enter: anything above is a typo, not a top-up. */
const MAX_BALANCE_USD = 10_000_000;
const overrideSchema = z.object({ value: z.number(), set_at: z.string() });

export interface BalanceEstimate {
	override: { value: number; setAt: string } | null;
	spentSinceUsd: number;
	estimateUsd: number | null;
}

export async function readBalanceEstimate(db: Db): Promise<BalanceEstimate> {
	const raw = await readSetting(db, BALANCE_KEY);
	const parsed = raw === null ? null : overrideSchema.safeParse(parseJson(raw));
	if (!parsed?.success) return { override: null, spentSinceUsd: 0, estimateUsd: null };
	const { value, set_at: setAt } = parsed.data;
	const spent = await db.apiUsage.aggregate({ where: { ts: { gte: setAt } }, _sum: { estCostUsd: true } });
	const spentSinceUsd = spent._sum.estCostUsd ?? 0;
	return { override: { value, setAt }, spentSinceUsd, estimateUsd: value - spentSinceUsd };
}

/**
 * set_balance_override: written with the audit row in one transaction. The setting is locked (by
 * its key, so also the very first time, when it has no row yet) before the previous value is read:
 * of two consoles setting it at once on PostgreSQL the second's audit names the first's value.
 */
export async function setBalanceOverride(db: Db, clock: Clock, actor: Actor, valueUsd: number): Promise<void> {
	if (!Number.isFinite(valueUsd) || valueUsd < 0 || valueUsd > MAX_BALANCE_USD)
		throw new DomainError({ code: 'BalanceOutOfRange', maxUsd: MAX_BALANCE_USD });
	const setAt = clock.now().toISOString();
	const value = Math.round(valueUsd * 100) / 100;
	await db.$transaction(async (tx) => {
		await lockKeys(tx, [`setting:${BALANCE_KEY}`]);
		const previous = await tx.setting.findUnique({ where: { key: BALANCE_KEY } });
		const json = JSON.stringify({ value, set_at: setAt });
		await tx.setting.upsert({
			where: { key: BALANCE_KEY },
			create: { key: BALANCE_KEY, value: json, updatedAt: setAt },
			update: { value: json, updatedAt: setAt }
		});
		await recordAudit(tx, clock, actor, {
			action: 'set_balance_override',
			details: { value, previous: previous ? parseJson(previous.value) : null }
		});
	});
}

function parseJson(raw: string): unknown {
	try {
		return JSON.parse(raw);
	} catch {
		return null;
	}
}
