/**
 * Turning one pino JSON line into a `log_entries` row. The line is already redacted by pino (the
 * same `redact` rules and secret scrub as stdout), so what reaches the table never holds a token,
 * password or IP; the scrub runs here once more for lines that came another way. Guests' texts,
 * Telegram payloads and ids are taken out here, for the table only (guest-data-scrub.ts).
 */
import { scrubGuestData, type Pseudonymise } from './guest-data-scrub.ts';
import { scrubSecrets } from './secret-scrub.ts';

export { scrubLinkSecrets } from './secret-scrub.ts';

export type LogProcess = 'web' | 'worker';
export type StoredLevel = 'warn' | 'error' | 'fatal';

export interface LogEntryDraft {
	at: string;
	process: LogProcess;
	level: StoredLevel;
	message: string;
	/** The line's other fields as JSON, at most CONTEXT_MAX_BYTES; null when there are none. */
	context: string | null;
}

/** Big enough for an error with a short stack, small enough that 5000 rows stay a few MB. */
export const CONTEXT_MAX_BYTES = 2048;
const MESSAGE_MAX_CHARS = 1000;

/** pino's numeric levels; anything below warn never reaches the table. */
const LEVEL_NAMES: Record<number, StoredLevel> = { 40: 'warn', 50: 'error', 60: 'fatal' };

/** Fields every line carries that the row stores in its own columns (or that say nothing). */
const OWN_COLUMNS = new Set(['level', 'time', 'msg', 'process', 'pid', 'hostname']);

/** Null for a line that is not JSON or is below warn: the sink skips it. */
export function parseLogLine(
	line: string,
	processName: LogProcess,
	fallbackAt: () => string,
	pseudonymise: Pseudonymise = () => '[telegram id]'
): LogEntryDraft | null {
	let record: Record<string, unknown>;
	try {
		record = JSON.parse(line) as Record<string, unknown>;
	} catch {
		return null;
	}
	const level = LEVEL_NAMES[Number(record.level)];
	if (!level) return null;
	const rest = scrubGuestData(
		Object.fromEntries(Object.entries(record).filter(([key]) => !OWN_COLUMNS.has(key))),
		pseudonymise
	);
	return {
		at: typeof record.time === 'string' ? record.time : fallbackAt(),
		process: processName,
		level,
		message: scrubSecrets(describeMessage(record)).slice(0, MESSAGE_MAX_CHARS),
		context: Object.keys(rest).length > 0 ? capContext(scrubSecrets(JSON.stringify(rest))) : null
	};
}

function describeMessage(record: Record<string, unknown>): string {
	if (typeof record.msg === 'string' && record.msg !== '') return record.msg;
	const err = record.err as { message?: unknown } | undefined;
	return typeof err?.message === 'string' ? err.message : '(no message)';
}

/**
 * Keeps the context valid JSON when it is too long: a cut-off string would not parse in the
 * console, so an oversized context becomes `{ truncated, bytes, preview }`.
 */
export function capContext(json: string): string {
	const bytes = Buffer.byteLength(json);
	if (bytes <= CONTEXT_MAX_BYTES) return json;
	for (let keep = CONTEXT_MAX_BYTES - 100; keep > 0; keep = Math.floor(keep * 0.8)) {
		const capped = JSON.stringify({ truncated: true, bytes, preview: json.slice(0, keep) });
		if (Buffer.byteLength(capped) <= CONTEXT_MAX_BYTES) return capped;
	}
	return JSON.stringify({ truncated: true, bytes });
}
