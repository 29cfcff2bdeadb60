/**
 * One process's log line as `npm start` shows it on a terminal: a pino JSON line becomes
 * `08:54:56 INFO  worker started  pid=22768 telegram=emulator`, with the fields people read and
 * none of the bookkeeping (time in full, level number, process, hostname). Anything that is not
 * a pino line (the emulator's own banner, a stack trace) is shown as it is. Files, journald and
 * the console's Logs page keep the full JSON; only the terminal gets this view.
 */
const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
const BOOKKEEPING = new Set(['level', 'time', 'msg', 'process', 'hostname', 'pid', 'workerId', 'v']);
const MAX_VALUE = 60;
const MAX_FIELDS = 6;

export function humanLogLine(line: string): string {
	if (!line.startsWith('{')) return line;
	let entry: Record<string, unknown>;
	try {
		entry = JSON.parse(line) as Record<string, unknown>;
	} catch {
		return line;
	}
	if (typeof entry.level !== 'number' || typeof entry.msg !== 'string') return line;
	const time =
		typeof entry.time === 'string'
			? entry.time.slice(11, 19)
			: typeof entry.time === 'number'
				? new Date(entry.time).toISOString().slice(11, 19)
				: '--:--:--';
	const fields = Object.entries(entry).filter(([key]) => !BOOKKEEPING.has(key));
	const shown = fields.slice(0, MAX_FIELDS).map(([key, value]) => `${key}=${shortValue(value)}`);
	if (fields.length > MAX_FIELDS) shown.push(`(+${fields.length - MAX_FIELDS} more)`);
	return [
		time,
		LEVELS[entry.level] ?? String(entry.level),
		entry.msg,
		...(shown.length ? [' ' + shown.join(' ')] : [])
	].join(' ');
}

function shortValue(value: unknown): string {
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}
