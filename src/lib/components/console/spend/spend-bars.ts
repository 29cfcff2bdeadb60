import type { SpendBucket } from '$lib/server/spend/spend-summary';
import type { ChartBar } from '../charts/bars';
import { formatUsd } from '../format';

/** A spend bucket (a day, a stage, a provider) as a bar of the console's chart: its cost in calls. */
export const spendBar = (bucket: SpendBucket, label: string): ChartBar => ({
	key: bucket.key,
	label,
	value: bucket.costUsd,
	sentence: `${bucket.key}: ${formatUsd(bucket.costUsd)} in ${bucket.calls} calls`
});

/** Money on an axis: "$0" rather than "$0.00" at the origin. */
export const axisMoney = (value: number) => (value === 0 ? '$0' : formatUsd(value));
