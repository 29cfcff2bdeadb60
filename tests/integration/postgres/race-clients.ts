import { afterAll } from 'vitest';
import { openPostgresDatabase, type Db } from '../../../src/lib/server/db/client.ts';
import { DomainError } from '../../../src/lib/server/errors/domain-error.ts';

/**
 * Two clients of one PostgreSQL database, each with its own connections: what two web processes
 * (or two workers) are to each other. Disconnected after the file's last test.
 */
export function useTwoClients(database: () => { url: string }): () => [Db, Db] {
	let clients: [Db, Db] | undefined;
	afterAll(async () => {
		await Promise.all((clients ?? []).map((db) => db.$disconnect()));
	});
	return () => (clients ??= [openPostgresDatabase(database().url), openPostgresDatabase(database().url)]);
}

/** Both clients run `step` at the same moment; the outcomes in client order, refusals included. */
export function atOnce<T>(
	clients: readonly Db[],
	step: (db: Db, n: number) => Promise<T>
): Promise<PromiseSettledResult<T>[]> {
	return Promise.allSettled(clients.map((db, n) => step(db, n)));
}

/** What each rejected outcome was: a DomainError's refusal code, else the error's name and message (a bug). */
export function refusals(outcomes: readonly PromiseSettledResult<unknown>[]): string[] {
	return outcomes.flatMap((o) => (o.status === 'rejected' ? [refusalOf(o.reason)] : []));
}

export function fulfilled<T>(outcomes: readonly PromiseSettledResult<T>[]): T[] {
	return outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
}

function refusalOf(reason: unknown): string {
	if (reason instanceof DomainError) return reason.refusal.code;
	return reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason);
}
