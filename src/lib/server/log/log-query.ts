import type { Db } from '../db/client.ts';
import type { Prisma } from '../db/generated/client.ts';

export interface LogFilter {
	process?: 'web' | 'worker';
	/** The least severe level shown: `error` hides warnings. */
	level?: 'warn' | 'error';
	/** Words in the message or the context. */
	search?: string;
	/** One worker launch (worker_processes.id). */
	workerId?: string;
	limit?: number;
}

export interface LogRow {
	id: number;
	at: string;
	process: string;
	level: string;
	message: string;
	context: string | null;
	workerId: string | null;
}

/** Newest first; `matching` counts every row the filter finds, beyond the page shown. */
export async function listLogEntries(db: Db, filter: LogFilter): Promise<{ entries: LogRow[]; matching: number }> {
	const where = logWhere(filter);
	const [entries, matching] = await Promise.all([
		db.logEntry.findMany({ where, orderBy: { id: 'desc' }, take: Math.min(filter.limit ?? 200, 500) }),
		db.logEntry.count({ where })
	]);
	return { entries, matching };
}

function logWhere(filter: LogFilter): Prisma.LogEntryWhereInput {
	const search = filter.search?.trim();
	return {
		...(filter.process ? { process: filter.process } : {}),
		...(filter.level === 'error' ? { level: { in: ['error', 'fatal'] } } : {}),
		...(filter.workerId ? { workerId: filter.workerId } : {}),
		...(search ? { OR: [{ message: { contains: search } }, { context: { contains: search } }] } : {})
	};
}
