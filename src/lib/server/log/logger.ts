import pino from 'pino';
import { scrubSecrets } from './secret-scrub.ts';

export type Logger = pino.Logger;
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export interface LoggerOptions {
	/** Also gets every warning and error line (the console's log table: log-sink.ts). */
	warningsTo?: pino.DestinationStream;
	/** Instead of stdout (tests that read the lines back). */
	stdout?: pino.DestinationStream;
}

/**
 * JSON lines on stdout (journald and logrotate take it from there). `process` names the emitting
 * process (web, worker, emulator). Never log a visitor's raw IP, a token or a password.
 * Redaction happens before a line is serialised (by field name) and once more on the finished
 * line (secrets inside values, e.g. a bot token in a nested error's URL), so it holds for every
 * destination alike.
 */
export function createLogger(processName: string, level: LogLevel = 'info', options: LoggerOptions = {}): Logger {
	const settings: pino.LoggerOptions = {
		level,
		base: { process: processName },
		timestamp: pino.stdTimeFunctions.isoTime,
		redact: { paths: ['token', 'password', '*.token', '*.password', 'ip', '*.ip'], censor: '[redacted]' },
		hooks: { streamWrite: scrubSecrets }
	};
	if (!options.warningsTo && !options.stdout) return pino(settings);
	// The stdout stream takes every line the logger's level lets through, as without a copy.
	const stdout = options.stdout ?? pino.destination({ dest: process.stdout.fd || 1 });
	const streams: pino.StreamEntry[] = [{ level: 'trace', stream: stdout }];
	if (options.warningsTo) streams.push({ level: 'warn', stream: options.warningsTo });
	return pino(settings, pino.multistream(streams));
}

/** For tests and tools that must stay quiet. */
export const silentLogger: Logger = pino({ level: 'silent' });
