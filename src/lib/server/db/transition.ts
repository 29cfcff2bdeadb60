/**
 * Conditional status changes: `UPDATE … SET status = to WHERE key = ? AND status = from`.
 * Two actors racing (a kiosk timeout and a guest's tap) cannot both win: exactly one sees
 * `won: true`; the loser learns what the row says now and can give a clear answer.
 */
export type TransitionResult<S extends string> = { won: true } | { won: false; current: S | null };

interface StatusDelegate<Where> {
	updateMany(args: { where: Where & { status: { in: string[] } }; data: Record<string, unknown> }): Promise<{ count: number }>;
	findFirst(args: { where: Where; select: { status: true } }): Promise<{ status: string } | null>;
}

export async function transitionStatus<S extends string, Where extends object>(
	delegate: StatusDelegate<Where>,
	where: Where,
	from: S | readonly S[],
	to: S,
	data: Record<string, unknown> = {}
): Promise<TransitionResult<S>> {
	const expected = (Array.isArray(from) ? [...from] : [from]) as string[];
	const { count } = await delegate.updateMany({ where: { ...where, status: { in: expected } }, data: { ...data, status: to } });
	if (count > 0) return { won: true };
	const row = await delegate.findFirst({ where, select: { status: true } });
	return { won: false, current: (row?.status as S | undefined) ?? null };
}
