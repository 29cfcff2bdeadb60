/** Small display helpers for the console (browser and server render alike). */

export function formatUsd(value: number | null | undefined): string {
	if (value === null || value === undefined) return '—';
	// Single provider calls cost fractions of a cent: show those to 4 places, everything else to 2.
	return `$${value.toFixed(value !== 0 && Math.abs(value) < 0.01 ? 4 : 2)}`;
}

/** "45 s", "12 min", "3 h 5 min", "2 d 4 h". */
export function formatDuration(ms: number): string {
	const s = Math.max(0, Math.round(ms / 1000));
	if (s < 60) return `${s} s`;
	const m = Math.floor(s / 60);
	if (m < 60) return `${m} min ${s % 60 ? `${s % 60} s` : ''}`.trim();
	const h = Math.floor(m / 60);
	if (h < 48) return `${h} h ${m % 60} min`;
	return `${Math.floor(h / 24)} d ${h % 24} h`;
}

export function formatAgo(iso: string | null | undefined, now: number): string {
	if (!iso) return '—';
	const t = Date.parse(iso);
	if (Number.isNaN(t)) return iso;
	return `${formatDuration(now - t)} ago`;
}

/** Local date and time, to the second, for tables people scan. */
export function formatTime(iso: string | null | undefined): string {
	if (!iso) return '—';
	const d = new Date(iso);
	if (Number.isNaN(d.getTime())) return iso;
	return d.toLocaleString('en-GB', {
		year: 'numeric',
		month: 'short',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit'
	});
}

export function formatBytes(bytes: number | null | undefined): string {
	if (bytes === null || bytes === undefined) return '—';
	const units = ['B', 'KB', 'MB', 'GB', 'TB'];
	let value = bytes;
	let unit = 0;
	while (value >= 1024 && unit < units.length - 1) {
		value /= 1024;
		unit++;
	}
	return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

/** Who paused the queue, for the banner and the Health page (maintenance.source). */
export function pauseSourceText(source: string): string {
	if (source === 'auto') return 'automatically — the image provider reported a billing problem';
	if (source === 'config')
		return 'automatically — a provider setting needs fixing (an unknown model, or a key, permission or location the provider refuses)';
	if (source === 'quota_day') return "automatically — the image provider's daily quota is spent";
	if (source === 'quota_minute')
		return "automatically — held for the image provider's per-minute quota (it named how long to wait)";
	return 'by an operator';
}
