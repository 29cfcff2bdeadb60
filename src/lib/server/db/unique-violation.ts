/**
 * Prisma's unique-constraint error (P2002), from either engine's client (each generated client has
 * its own error class, so the code is read instead of `instanceof`). On SQLite BEGIN IMMEDIATE
 * lets the check before an insert see the other's row; on PostgreSQL two inserts at once can both
 * pass that check, and the unique key refuses the second.
 */
export function isUniqueViolation(error: unknown): boolean {
	return (error as { code?: unknown } | null)?.code === 'P2002';
}
