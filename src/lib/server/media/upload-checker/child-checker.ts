import type { Logger } from '../../log/logger.ts';
import { CheckerProcess, describeExit, type CheckerEntry } from './checker-process.ts';
import { UploadCheckFailed, type CheckFailure, type UploadCheck, type UploadChecker } from './upload-check.ts';

/**
 * The upload check in a short-lived child process, so the web process stays small: the face
 * detector's wasm heap (~85 MB, never shrinks) and what decoding 12 MP photos leaves behind in
 * malloc and libvips go back to the system when the child ends. Started when a kiosk session
 * starts (the guest then spends at least 20 s in the bot, enough to start it and load the models)
 * or by the first upload that finds none; one photo at a time, in arrival order; ended after
 * CHECKER_IDLE_MS without uploads. A child that dies or hangs fails only the upload it had; the
 * next one starts a fresh child.
 */

/**
 * A guest's retake follows within seconds and the next guest's Start starts the checker again,
 * so a minute without uploads or Starts means the kiosk is between guests: the memory is handed
 * back. A guest slower than that in the bot waits for a fresh start (2–3 s) on their upload.
 */
export const CHECKER_IDLE_MS = 60_000;
/** A 12 MP photo takes about half a second; a check still running after this is taken as hung. */
export const CHECK_TIMEOUT_MS = 15_000;
/** tsx, sharp and the detector's models load in about 2 s; a child not ready after this is stuck. */
export const CHECKER_START_TIMEOUT_MS = 30_000;
/** A retired child that has not exited after this long (it should within milliseconds) is killed. */
const RETIRE_GRACE_MS = 5_000;

/** Runs `run` after `ms` unless cancelled. Injected so tests fire the idle and timeout rules without waiting. */
export type Schedule = (ms: number, run: () => void) => () => void;

export const timerSchedule: Schedule = (ms, run) => {
	// Never the reason the web process stays up.
	const timer = setTimeout(run, ms).unref();
	return () => clearTimeout(timer);
};

export interface ChildCheckerOptions {
	entry: CheckerEntry;
	logger: Logger;
	schedule?: Schedule;
	env?: NodeJS.ProcessEnv;
}

export class ChildUploadChecker implements UploadChecker {
	#current: CheckerProcess | null = null;
	/** Children that end because we ended them (idle, stop, timeout): not logged as a crash. */
	#endedByUs = new WeakSet<CheckerProcess>();
	#tail: Promise<unknown> = Promise.resolve();
	#waiting = 0;
	#nextId = 1;
	#cancelIdle: (() => void) | null = null;
	#stopped = false;
	readonly #schedule: Schedule;

	constructor(private readonly options: ChildCheckerOptions) {
		this.#schedule = options.schedule ?? timerSchedule;
	}

	/** The running child's pid, if one runs (tests and the benchmark read its memory). */
	get pid(): number | undefined {
		return this.#current?.running ? this.#current.pid : undefined;
	}

	warmUp(): void {
		if (this.#stopped) return;
		const child = this.#running();
		this.#within(child, child.ready, CHECKER_START_TIMEOUT_MS, 'start_failed', 'was not ready').then(
			() => {
				// A full idle time from now: the guest who just pressed Start uploads in 20 s or more.
				this.#cancelIdle?.();
				this.#cancelIdle = null;
				this.#idleIfQuiet();
			},
			(error: UploadCheckFailed) =>
				this.options.logger.warn(
					{ reason: error.reason, detail: error.message },
					'upload checker could not be warmed up; the next upload tries again'
				)
		);
	}

	check(photo: Buffer): Promise<UploadCheck> {
		if (this.#stopped) return Promise.reject(new UploadCheckFailed('failed', 'the web process is shutting down'));
		this.#waiting++;
		this.#cancelIdle?.();
		this.#cancelIdle = null;
		const run = this.#tail.then(() => this.#checkOne(photo));
		this.#tail = run.catch(() => undefined);
		return run.finally(() => {
			this.#waiting--;
			this.#idleIfQuiet();
		});
	}

	/** Ends the child (web shutdown): the channel is closed, and the child killed if it lingers. */
	async stop(): Promise<void> {
		this.#stopped = true;
		this.#cancelIdle?.();
		const child = this.#current;
		if (!child) return;
		// Held while it ends, so whoever awaits this sees the end (an idle child holds nothing open).
		child.hold(true);
		this.#retire(child);
		await child.exited;
	}

	/** At process exit nothing can be awaited: the child is killed outright. */
	kill(): void {
		if (this.#current) this.#endedByUs.add(this.#current);
		this.#current?.kill();
	}

	async #checkOne(photo: Buffer): Promise<UploadCheck> {
		const child = this.#running();
		child.hold(true);
		try {
			await this.#within(child, child.ready, CHECKER_START_TIMEOUT_MS, 'start_failed', 'was not ready');
			return await this.#within(
				child,
				child.ask(this.#nextId++, photo),
				CHECK_TIMEOUT_MS,
				'timed_out',
				'did not answer'
			);
		} finally {
			child.hold(false);
		}
	}

	/** The running child, or a new one. */
	#running(): CheckerProcess {
		if (this.#current?.running) return this.#current;
		const started = performance.now();
		const child = new CheckerProcess(this.options.entry, this.options.env);
		this.#current = child;
		child.hold(false);
		const { logger } = this.options;
		child.ready.then(
			() => logger.info({ pid: child.pid, readyMs: Math.round(performance.now() - started) }, 'upload checker ready'),
			() => undefined
		);
		void child.exited.then((exit) => {
			if (this.#current === child) this.#current = null;
			if (this.#endedByUs.has(child)) logger.info({ pid: child.pid, exit: describeExit(exit) }, 'upload checker ended');
			else
				logger.warn(
					{ pid: child.pid, exit: describeExit(exit) },
					'upload checker ended unexpectedly; the next upload starts a new one'
				);
		});
		return child;
	}

	/** `work`, or UploadCheckFailed(reason) once `ms` pass first — the child is then killed, as it is stuck. */
	#within<T>(child: CheckerProcess, work: Promise<T>, ms: number, reason: CheckFailure, what: string): Promise<T> {
		return new Promise<T>((resolve, reject) => {
			const cancel = this.#schedule(ms, () => {
				reject(new UploadCheckFailed(reason, `the upload checker ${what} within ${ms / 1000} s`));
				this.options.logger.error({ pid: child.pid, reason }, `upload checker ${what} within ${ms / 1000} s; killed`);
				this.#endedByUs.add(child);
				child.kill();
			});
			work.then(resolve, reject).finally(cancel);
		});
	}

	#idleIfQuiet(): void {
		if (this.#waiting > 0 || this.#cancelIdle || this.#stopped || !this.#current?.running) return;
		this.#cancelIdle = this.#schedule(CHECKER_IDLE_MS, () => {
			this.#cancelIdle = null;
			if (this.#waiting > 0 || !this.#current) return;
			this.options.logger.info(
				{ pid: this.#current.pid, idleSeconds: CHECKER_IDLE_MS / 1000 },
				'upload checker idle; ending it to hand its memory back'
			);
			this.#retire(this.#current);
		});
	}

	#retire(child: CheckerProcess): void {
		if (this.#current === child) this.#current = null;
		this.#endedByUs.add(child);
		child.retire();
		this.#schedule(RETIRE_GRACE_MS, () => child.kill());
	}
}
