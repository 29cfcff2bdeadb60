import pino from 'pino';

export type Logger = pino.Logger;
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/**
 * JSON lines on stdout (journald and logrotate take it from there). `process` names the emitting
 * process (web, worker, emulator). Never log a visitor's raw IP, a token or a password.
 */
export function createLogger(processName: string, level: LogLevel = 'info'): Logger {
	return pino({
		level,
		base: { process: processName },
		timestamp: pino.stdTimeFunctions.isoTime,
		redact: { paths: ['token', 'password', '*.token', '*.password', 'ip', '*.ip'], censor: '[redacted]' }
	});
}

/** For tests and tools that must stay quiet. */
export const silentLogger: Logger = pino({ level: 'silent' });
