import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';

/**
 * Runs ffmpeg or ffprobe as a child process, stopped (SIGKILL) when the job's signal aborts or the
 * timeout passes, so a stuck encoder never holds a job slot. Output is collected (both tools are
 * run quiet: ffprobe's JSON is small, ffmpeg writes to a file).
 */
export class VideoToolFailed extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'VideoToolFailed';
	}
}

export async function runTool(
	command: string,
	args: string[],
	options: { signal: AbortSignal; timeoutMs: number; feed?: (stdin: Writable) => Promise<void> }
): Promise<{ stdout: Buffer }> {
	options.signal.throwIfAborted();
	const timeout = AbortSignal.timeout(options.timeoutMs);
	const signal = AbortSignal.any([options.signal, timeout]);
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, {
			stdio: [options.feed ? 'pipe' : 'ignore', 'pipe', 'pipe'],
			signal,
			killSignal: 'SIGKILL'
		});
		if (options.feed && child.stdin) {
			const stdin = child.stdin;
			// A tool that dies early closes its input (EPIPE): its exit code tells what happened.
			stdin.on('error', () => undefined);
			options
				.feed(stdin)
				.then(() => stdin.end())
				.catch((error: unknown) => {
					child.kill('SIGKILL');
					reject(error);
				});
		}
		const out: Buffer[] = [];
		let err = '';
		child.stdout!.on('data', (chunk: Buffer) => out.push(chunk));
		child.stderr!.on('data', (chunk: Buffer) => {
			if (err.length < 4000) err += chunk.toString('utf8');
		});
		child.on('error', (error: Error & { code?: string }) => {
			// The job's own abort (lease lost, shutdown) propagates as the job's reason.
			if (options.signal.aborted) return reject(options.signal.reason);
			if (timeout.aborted) return reject(new VideoToolFailed(`${command} took over ${options.timeoutMs} ms`));
			reject(new VideoToolFailed(`${command} could not run: ${error.code ?? error.message}`));
		});
		child.on('close', (code) => {
			if (signal.aborted) return; // 'error' answered
			if (code === 0) resolve({ stdout: Buffer.concat(out) });
			else reject(new VideoToolFailed(`${command} exited with ${code}: ${err.trim().split('\n').at(-1) ?? ''}`));
		});
	});
}
