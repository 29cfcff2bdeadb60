import { closeSync, fchmodSync, fstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { Clock } from '../time/clock.ts';

/**
 * Secrets of a first start — the first kiosk key, the console setup link — are for the person
 * setting the product up, not for everyone who reads logs: the log files are tailed by deploy
 * scripts and kept for two weeks, and log_entries is readable in the console. So they never go to
 * the log stream. They are appended to DATA_DIR/first-run-secrets.txt (mode 600 from its first
 * byte) and shown on the terminal when the process has one; `npm start` (scripts/run-all.ts)
 * shows on its terminal what appears in the file.
 */
export const FIRST_RUN_SECRETS_FILE = 'first-run-secrets.txt';

const HEADER = [
	'# One-time secrets of a first start, written by the web process; they are never in the logs.',
	'# Take what you need (the kiosk key is shown nowhere else), then delete this file.',
	''
];

export function firstRunSecretsPath(dataDir: string): string {
	return path.join(dataDir, FIRST_RUN_SECRETS_FILE);
}

/** Appends one note (`title` then indented `lines`); returns the file's path. */
export function keepFirstRunSecret(
	dataDir: string,
	clock: Clock,
	title: string,
	lines: string[],
	terminal: NodeJS.WriteStream = process.stdout
): string {
	mkdirSync(dataDir, { recursive: true });
	const file = firstRunSecretsPath(dataDir);
	const fd = openSync(file, 'a', 0o600);
	try {
		// A file someone widened by hand is narrowed again before a secret goes in.
		fchmodSync(fd, 0o600);
		const header = fstatSync(fd).size === 0 ? HEADER : [];
		writeSync(
			fd,
			[...header, `${clock.now().toISOString()}  ${title}`, ...lines.map((line) => `  ${line}`), ''].join('\n')
		);
	} finally {
		closeSync(fd);
	}
	if (terminal.isTTY)
		terminal.write(`\n${title}\n${lines.map((line) => `  ${line}`).join('\n')}\n  (kept in ${file})\n\n`);
	return file;
}
