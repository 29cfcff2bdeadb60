import { recordAudit, type Actor } from '../audit/audit-log.ts';
import { DomainError } from '../errors/domain-error.ts';
import type { Db } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';

/** grant_extra_pack: one more pack on top of the guest's limit (users.extra_packs_allowed + 1). */
export async function grantExtraPack(
	db: Db,
	clock: Clock,
	actor: Actor,
	telegramUserId: bigint
): Promise<{ extraPacksAllowed: number }> {
	return db.$transaction(async (tx) => {
		const { count } = await tx.user.updateMany({
			where: { telegramUserId },
			data: { extraPacksAllowed: { increment: 1 } }
		});
		if (count === 0) throw new DomainError({ code: 'GuestNotFound', telegramUserId, perhapsReset: false });
		const user = await tx.user.findUniqueOrThrow({ where: { telegramUserId }, select: { extraPacksAllowed: true } });
		await recordAudit(tx, clock, actor, {
			action: 'grant_extra_pack',
			telegramUserId,
			details: { extraPacksAllowed: user.extraPacksAllowed }
		});
		return { extraPacksAllowed: user.extraPacksAllowed };
	});
}
