import { periodStartOf } from '../../../src/lib/server/fleet/task-periods.ts';
import { PERIOD_TICK_OFFSET_MS } from '../../../src/worker/scheduler.ts';
import type { LogLine } from './fleet-workers.ts';

/** What ends a launch's hold on a job other than finishing it: the job loop's own release lines. */
const RELEASED = new Set(['job attempt failed; will retry', 'job stopped', 'job failed for good']);

/**
 * Claims of one job by a launch that did not let go of it first: a claim is held from its
 * "job claimed" line until the launch was SIGKILLed or logged the job's release. Any later claim
 * of the job inside that span means two workers held it at once. Returns one sentence per overlap.
 */
export function overlappingClaims(lines: LogLine[]): string[] {
	const claims = lines.filter((line) => line.msg === 'job claimed').sort((a, b) => a.at - b.at);
	const problems: string[] = [];
	const byJob = groupBy(claims, (line) => Number(line.fields.jobId));
	for (const [jobId, ofJob] of byJob) {
		for (let i = 1; i < ofJob.length; i++) {
			const held = ofJob[i - 1]!;
			const next = ofJob[i]!;
			const heldUntil = releaseOf(lines, held, jobId);
			if (heldUntil === null || heldUntil > next.at) {
				problems.push(
					`job ${jobId}: claimed by ${next.launch.workerId} at ${iso(next.at)} while ${held.launch.workerId} held it since ${iso(held.at)}`
				);
			}
		}
	}
	return problems;
}

function releaseOf(lines: LogLine[], claim: LogLine, jobId: number): number | null {
	const released = lines.find(
		(line) =>
			line.launch === claim.launch &&
			line.at >= claim.at &&
			RELEASED.has(line.msg) &&
			Number(line.fields.jobId) === jobId
	);
	const ends = [released?.at, claim.launch.killedAt].filter((at): at is number => typeof at === 'number');
	return ends.length ? Math.min(...ends) : null;
}

export interface TaskRunRow {
	task: string;
	periodStart: string;
	claimedBy: string;
}

/**
 * Each logged run of a fleet-wide task in a period it claimed ("fleet task run" with a period)
 * must be the only one of that task and period across all launches, and the claim row must name
 * the launch that ran it. A row with no logged run is allowed only for a launch killed between
 * its claim and its log line. Returns one sentence per breach.
 */
export function taskPeriodBreaches(lines: LogLine[], rows: TaskRunRow[]): string[] {
	const runs = lines.filter((line) => line.msg === 'fleet task run' && line.fields.period !== null);
	const problems: string[] = [];
	for (const [key, ofPeriod] of groupBy(runs, (line) => `${line.fields.task} ${line.fields.period}`)) {
		if (ofPeriod.length > 1)
			problems.push(`${key} ran ${ofPeriod.length} times: ${ofPeriod.map((line) => line.launch.workerId).join(', ')}`);
	}
	const ranBy = new Map(runs.map((line) => [`${line.fields.task} ${line.fields.period}`, line.launch]));
	for (const row of rows) {
		const key = `${row.task} ${row.periodStart}`;
		const launch = ranBy.get(key);
		if (launch && launch.workerId !== row.claimedBy)
			problems.push(`${key} was claimed by ${row.claimedBy} but run by ${launch.workerId}`);
	}
	return problems;
}

/**
 * Periods of `periodMs` wholly inside [from, to] with no claim row for `task`, although some launch
 * was alive and idle for that task when the period's ticks came (just after its start): such a
 * launch ticks, and of the ticking launches one claims the period. A period is rightly unrun when
 * every live launch was still inside a run that began earlier (a task never overlaps itself).
 */
export function unrunPeriods(
	lines: LogLine[],
	rows: TaskRunRow[],
	task: string,
	periodMs: number,
	from: number,
	to: number
): string[] {
	const claimed = new Set(rows.filter((row) => row.task === task).map((row) => row.periodStart));
	const busy = runSpans(lines, task);
	const started = scheduleStarts(lines, task);
	const missing: string[] = [];
	for (
		let start = Date.parse(periodStartOf(new Date(from), periodMs)) + periodMs;
		start + periodMs <= to;
		start += periodMs
	) {
		const period = new Date(start).toISOString();
		if (claimed.has(period)) continue;
		const tick = start + Math.min(PERIOD_TICK_OFFSET_MS, periodMs / 10);
		const idle = [...started].filter(
			([launch, at]) =>
				at <= tick &&
				(launch.killedAt === null || launch.killedAt > tick) &&
				!busy.some((span) => span.launch === launch && span.from <= tick && span.to > tick)
		);
		if (idle.length)
			missing.push(`${task} ${period} unrun although ${idle.map(([launch]) => launch.workerId).join(', ')} was idle`);
	}
	return missing;
}

/**
 * When each launch's ticks of `task` began: with its run at start, when that run began (the
 * timers are planned after it, and a starting worker's event loop may come to it late); without
 * one, when the launch said it had started.
 */
function scheduleStarts(lines: LogLine[], task: string): Map<LogLine['launch'], number> {
	const starts = new Map(lines.filter((line) => line.msg === 'worker started').map((line) => [line.launch, line.at]));
	for (const line of lines) {
		if (line.msg === 'fleet task run' && line.fields.task === task && line.fields.atStart === true)
			starts.set(line.launch, line.at);
	}
	return starts;
}

/** Each launch's runs of `task`, from its "fleet task run" line to its "fleet task done" line (or its death). */
function runSpans(lines: LogLine[], task: string): { launch: LogLine['launch']; from: number; to: number }[] {
	const spans: { launch: LogLine['launch']; from: number; to: number }[] = [];
	for (const [launch, ofLaunch] of groupBy(
		lines.filter((line) => line.fields.task === task),
		(line) => line.launch
	)) {
		let runFrom: number | null = null;
		for (const line of ofLaunch.sort((a, b) => a.at - b.at)) {
			if (line.msg === 'fleet task run') runFrom = line.at;
			if (line.msg === 'fleet task done' && runFrom !== null) {
				spans.push({ launch, from: runFrom, to: line.at });
				runFrom = null;
			}
		}
		if (runFrom !== null) spans.push({ launch, from: runFrom, to: launch.killedAt ?? Infinity });
	}
	return spans;
}

const iso = (at: number) => new Date(at).toISOString();

/** Map.groupBy, which Node 20 lacks. */
function groupBy<K, T>(items: T[], keyOf: (item: T) => K): Map<K, T[]> {
	const groups = new Map<K, T[]>();
	for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
	return groups;
}
