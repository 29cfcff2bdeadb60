/**
 * Conditional status changes: `UPDATE … SET status = to WHERE key = ? AND status = from`.
 * Two actors racing (a kiosk timeout and a guest's tap) cannot both win: exactly one sees
 * `won: true`; the loser learns what the row says now and can give a clear answer.
 */
export type TransitionResult<S extends string> = { won: true } | { won: false; current: S | null };

interface StatusDelegate<Where> {
	updateMany(args: {
		where: Where & { status: { in: string[] } };
		data: Record<string, unknown>;
	}): Promise<{ count: number }>;
	findFirst(args: { where: Where; select: { status: true } }): Promise<{ status: string } | null>;
}

export function transitionStatus<S extends string, Where extends object>(
	delegate: StatusDelegate<Where>,
	where: Where,
	from: S | readonly S[],
	to: S,
	data: Record<string, unknown> = {}
): Promise<TransitionResult<S>> {
	return updateWhileStatus(delegate, where, from, { ...data, status: to });
}

/**
 * The same conditional write for any fields, the status included or not: `data` is written only
 * while the row is in `from` (and matches `where`). The loser's current status is read by
 * `lookup`, the row's key, when `where` holds conditions beyond it.
 */
export async function updateWhileStatus<S extends string, Where extends object>(
	delegate: StatusDelegate<Where>,
	where: Where,
	from: S | readonly S[],
	data: Record<string, unknown>,
	lookup: Where = where
): Promise<TransitionResult<S>> {
	const expected = (Array.isArray(from) ? [...from] : [from]) as string[];
	const { count } = await delegate.updateMany({ where: { ...where, status: { in: expected } }, data });
	if (count > 0) return { won: true };
	const row = await delegate.findFirst({ where: lookup, select: { status: true } });
	return { won: false, current: (row?.status as S | undefined) ?? null };
}
