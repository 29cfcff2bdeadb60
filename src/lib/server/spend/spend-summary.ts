import type { Db } from '../db/client.ts';
import { dialectOf } from '../db/dialect/dialect.ts';
import { DAY, type Clock } from '../time/clock.ts';
import { readBalanceEstimate, type BalanceEstimate } from './balance.ts';

/** The Spend page: cost per day, per stage, per provider and per job over a window of days. */
export interface SpendBucket {
	key: string;
	costUsd: number;
	calls: number;
	failedCalls: number;
	images: number;
}

export interface SpendSummary {
	days: number;
	from: string;
	totalUsd: number;
	perDay: SpendBucket[];
	perStage: SpendBucket[];
	perProvider: SpendBucket[];
	perJob: (SpendBucket & { jobExists: boolean })[];
	balance: BalanceEstimate;
}

interface BucketRow {
	key: string | null;
	cost: number | null;
	calls: bigint | number;
	failed: bigint | number | null;
	images: bigint | number | null;
}

// Grouping expressions are fixed strings chosen below, never user input; all of this SQL reads
// the same in SQLite and PostgreSQL (coalesce, CASE, no total() or ifnull()).
const GROUPS = {
	day: 'substr(ts, 1, 10)',
	stage: "coalesce(stage, '(none)')",
	provider: "provider || coalesce(' · ' || model, '')",
	job: "coalesce(CAST(job_id AS TEXT), '(no job)')"
} as const;

async function sumBy(
	db: Db,
	group: keyof typeof GROUPS,
	from: string,
	order: 'key' | 'cost',
	limit = 500
): Promise<SpendBucket[]> {
	const rows = await db.$queryRawUnsafe<BucketRow[]>(
		dialectOf(db)
			.numberParams(`SELECT ${GROUPS[group]} AS key, coalesce(sum(est_cost_usd), 0) AS cost, count(*) AS calls,
		   sum(CASE WHEN ok = 0 THEN 1 ELSE 0 END) AS failed, coalesce(sum(images), 0) AS images
		 FROM api_usage WHERE ts >= ? GROUP BY 1 ORDER BY ${order === 'key' ? '1 ASC' : '2 DESC'} LIMIT ${limit}`),
		from
	);
	return rows.map((row) => ({
		key: row.key ?? '',
		costUsd: Number(row.cost ?? 0),
		calls: Number(row.calls),
		failedCalls: Number(row.failed ?? 0),
		images: Number(row.images ?? 0)
	}));
}

export async function readSpendSummary(db: Db, clock: Clock, days: number): Promise<SpendSummary> {
	const now = clock.now();
	const firstDay = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (days - 1) * DAY);
	const from = firstDay.toISOString();
	const [perDayRaw, perStage, perProvider, perJobRaw, balance] = await Promise.all([
		sumBy(db, 'day', from, 'key'),
		sumBy(db, 'stage', from, 'cost'),
		sumBy(db, 'provider', from, 'cost'),
		sumBy(db, 'job', from, 'cost', 50),
		readBalanceEstimate(db)
	]);
	const perDay = Array.from({ length: days }, (_, i) => {
		const key = new Date(firstDay.getTime() + i * DAY).toISOString().slice(0, 10);
		return perDayRaw.find((b) => b.key === key) ?? { key, costUsd: 0, calls: 0, failedCalls: 0, images: 0 };
	});
	const jobIds = perJobRaw.map((b) => Number(b.key)).filter(Number.isInteger);
	const existing = new Set(
		(await db.job.findMany({ where: { jobId: { in: jobIds } }, select: { jobId: true } })).map((j) => String(j.jobId))
	);
	const perJob = perJobRaw.map((b) => ({ ...b, jobExists: existing.has(b.key) }));
	const totalUsd = perDay.reduce((sum, b) => sum + b.costUsd, 0);
	return { days, from, totalUsd, perDay, perStage, perProvider, perJob, balance };
}
